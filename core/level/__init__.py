"""The level: its model, the document that edits it, and its file.

``model`` (immutable values: walls, boxes, pillars, the player), ``kinds`` (their
names in the designer's words), ``document`` (the level being edited, with
change events), ``file_format`` (load and save, every problem reported at once; its
parts in ``format``: each kind described once, one reader, one writer),
``migrations`` (older file versions), ``atomic`` (safe writes), ``recovery``
(autosaved copies), ``generate`` (levels of any size for tests and benchmarks)
and ``problems`` (what is wrong with a level, by object id).
"""
