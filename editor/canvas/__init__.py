"""The canvas: the graphics view (zoom, pan, grid), the scene of level items, the far-out overview and snapping."""
