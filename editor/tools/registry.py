"""The tools the editor offers, in toolbar order.

The main window builds one instance of each class listed in ``TOOL_CLASSES``,
a toolbar button and a checkable Tools-menu entry with the class's
``shortcut``. To add a tool, write it in its own file under editor/tools and
add one import and one list entry here.
"""
from __future__ import annotations

from level_editor.editor.tools.box_tool import BoxTool
from level_editor.editor.tools.marker_tool import MarkerTool
from level_editor.editor.tools.node_tool import NodeTool
from level_editor.editor.tools.oriented_box_tool import OrientedBoxTool
from level_editor.editor.tools.pillar_tool import PillarTool
from level_editor.editor.tools.select_tool import SelectTool
from level_editor.editor.tools.spawn_tool import SpawnTool
from level_editor.editor.tools.sprite_tool import SpriteTool
from level_editor.editor.tools.tile_brush_tool import TileBrushTool
from level_editor.editor.tools.tool import Tool
from level_editor.editor.tools.wall_tool import WallTool

TOOL_CLASSES: list[type[Tool]] = [
    SelectTool,
    NodeTool,
    WallTool,
    BoxTool,
    OrientedBoxTool,
    PillarTool,
    TileBrushTool,
    SpriteTool,
    SpawnTool,
    MarkerTool,
]
