"""The play-test inside the editor: F5 plays the level being drawn, Esc returns to editing.

The simulation is :class:`level_editor.core.playtest.simulation.Simulation`; this package only feeds
it input at a fixed tick and shows what it does.
"""
