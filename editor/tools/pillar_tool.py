"""Draw a round pillar from its centre outwards (C)."""
from __future__ import annotations

import math
from typing import Optional

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainterPath

from level_editor.core.level.limits import MAX_SIZE
from level_editor.core.level.model import Pillar
from level_editor.editor.canvas.snapping import clamped_point
from level_editor.editor.tools.drag_tool import DragTool
from level_editor.editor.tools.preview import distance, format_number


class PillarTool(DragTool):
    """Press at the centre, drag out the radius, release.

    With grid snapping on the radius goes in half-grid steps; dragging onto
    another object's node or corner makes the pillar reach exactly to it.
    """

    name = "Pillar"
    shortcut = "C"
    icon_name = "tool-pillar"
    hint = "Pillar: press at the centre, drag out the radius and release (Ctrl: no snapping, Esc cancels)."
    empty_drag_message = "Drag out from the centre to give the pillar a radius."
    drawing_hint = "drag out the radius and release (Ctrl: no snapping); Esc or Ctrl+Z cancels."

    def drag_point(self, pos: QPointF, modifiers: Qt.KeyboardModifier) -> QPointF:
        # The radius snaps, not the point under the cursor (see _reach); the point stays within the limits.
        return clamped_point(pos)

    def show_preview(self, center: QPointF, pos: QPointF, modifiers: Qt.KeyboardModifier) -> None:
        r, edge = self._reach(center, pos, modifiers)
        path = QPainterPath()
        if r > 0 and math.isfinite(r):
            path.addEllipse(QRectF(center.x() - r, center.y() - r, 2 * r, 2 * r))
            path.moveTo(center)
            path.lineTo(edge)
        self.preview.show(path, edge, f"radius {format_number(r)}")

    def make_object(self, center: QPointF, pos: QPointF, modifiers: Qt.KeyboardModifier) -> Optional[Pillar]:
        radius, _ = self._reach(center, pos, modifiers)
        if radius <= 0:
            return None
        return Pillar(self.editor.document.new_id("pillar"), (center.x(), center.y()), radius)

    def _reach(self, center: QPointF, pos: QPointF, modifiers) -> tuple[float, QPointF]:
        """The radius for the cursor at ``pos``, and the point on the rim it reaches to."""
        if pos == center:
            return 0.0, QPointF(center)  # the press itself: nothing to snap yet
        snapper = self.editor.snapper
        hit = snapper.snap_detail(pos, modifiers)
        if hit.kind == "object" and distance(center, hit.point) <= MAX_SIZE:
            return distance(center, hit.point), hit.point
        raw = distance(center, pos)
        radius = raw
        if snapper.grid_active(modifiers):
            step = snapper.grid() / 2
            radius = round(min(raw, MAX_SIZE) / step) * step
        radius = min(radius, MAX_SIZE)
        k = radius / raw
        return radius, QPointF(center.x() + (pos.x() - center.x()) * k, center.y() + (pos.y() - center.y()) * k)
