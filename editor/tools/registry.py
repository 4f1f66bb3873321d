"""The tools the editor offers, in toolbar order.

The main window builds one instance of each class listed in ``TOOL_CLASSES``,
a toolbar button and a checkable Tools-menu entry with the class's
``shortcut``. To add a tool, write it in its own file under editor/tools and
add one import and one list entry here.
"""
from __future__ import annotations

from editor.tools.select_tool import SelectTool
from editor.tools.tool import Tool

TOOL_CLASSES: list[type[Tool]] = [
    SelectTool,
]
