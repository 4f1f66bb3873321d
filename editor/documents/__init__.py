"""The level as a file: open, save, export and import Tiled maps, autosave, reference pictures, the clipboard."""
