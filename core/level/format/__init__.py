"""The level file format: ``fields`` (what each kind of object holds: the one description), ``read`` (the file
to the model), ``checks`` (each sort of value checked, every refusal worded), ``write`` (the model to the file) and
``text`` (how the JSON is spelled and laid out). Callers use :mod:`level_editor.core.level.file_format`.
"""
