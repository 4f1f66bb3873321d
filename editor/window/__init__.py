"""The main window and what hangs off it: menus, the context menu, the status bar, help, edit actions."""
