"""Undo commands, the only code that changes the document; one module per kind of change."""
