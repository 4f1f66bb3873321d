"""Editor tools, one per file, all under :class:`editor.tools.tool.Tool`."""
