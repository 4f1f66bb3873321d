"""Other formats in and out, on the model side, so the command line and the editor share them.

Tiled maps: :func:`write_tiled` writes a level as a TMJ or TMX map
(:mod:`level_editor.core.interop.tiled_export`); :func:`level_editor.core.interop.tiled_import.read_tiled`
reads a TMJ or TMX map (templates and external tilesets resolved, by
:mod:`level_editor.core.interop.tiled_files` and :mod:`level_editor.core.interop.tiled_tiles`) into a level,
with notes on what a level cannot hold. :mod:`level_editor.core.interop.tmx` is the XML side,
:mod:`level_editor.core.interop.png` writes the generated tilesets' pictures, and
:mod:`level_editor.core.interop.tiled_common` holds what export and import agree on.
"""
from level_editor.core.interop.tiled_common import ImportCancelled, TiledExportError, TiledImportError
from level_editor.core.interop.tiled_export import level_to_tiled, tiled_format, write_tiled

__all__ = ["ImportCancelled", "TiledExportError", "TiledImportError", "level_to_tiled", "tiled_format", "write_tiled"]
