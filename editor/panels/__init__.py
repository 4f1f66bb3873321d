"""The docks and dialogs around the canvas: inspector, object list, problems, preferences, recovery."""
