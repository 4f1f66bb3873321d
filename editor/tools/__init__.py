"""Editor tools, one per file, all under :class:`level_editor.editor.tools.tool.Tool`."""
