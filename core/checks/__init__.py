"""Checks of a whole level with shapely: outlines, validation, hulls, and the one ``check_level`` every caller uses.

``outlines`` turns each object into exact shapely geometry once; ``validation``
finds problems in it; ``hulls`` computes the bounding shapes a saved file
carries; ``check`` runs them together for the command line, the Problems dock,
the save and the play-test.
"""
