"""Small games built on :mod:`level_editor.core.runtime`, to read and to copy from.

``pygame_demo`` plays a level with pygame-ce (``pip install "level-editor[game]"``):
``python -m level_editor.core.examples.pygame_demo LEVEL.json``.
"""
