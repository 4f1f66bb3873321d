"""Painting the level's art with QPainter: pictures read once, tiles of tilesets, sprites, whole levels.

One renderer: the canvas's items and ``level-editor render`` draw with these same functions, so what the
editor shows is what the command writes.
"""
