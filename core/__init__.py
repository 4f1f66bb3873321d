"""The engine of the level editor: level model, file format, collision, simulation, validation.

Nothing here imports Qt or the editor (a CI check enforces it).
"""
#: The project's one version number: pyproject.toml reads it from here and `level-editor --version` prints it.
__version__ = "0.1.0"
