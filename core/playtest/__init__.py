"""The play-test without a window: the simulation, its fixed step, steering, replays and debug drawing.

The editor only shows what ``simulation`` computes; ``level-editor simulate``
runs the very same code, so a replay recorded in the editor gives the same
positions headless. ``debug_draw`` is an interface the application implements
(Box2D's ``b2DebugDraw``): the core never draws.
"""
