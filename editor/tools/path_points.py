"""A moving object's path points on the canvas: where their handles go, and the object with one moved, added or
removed (the select tool shows the handles of the one selected object and pushes these as undo steps)."""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from PySide6.QtCore import QPointF

from level_editor.core.collision.geometry import closest_point_on_segment, point_segment_distance_sq
from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.model import moving_path
from level_editor.editor.items.handle_item import HandleItem
from level_editor.editor.items.path_mark import path_middle

__all__ = ["ROLE", "is_path_role", "point_index", "middle", "handle_points", "with_point_moved",
           "with_point_added", "with_point_removed"]

#: A path point handle's role is ``ROLE + index``.
ROLE = "path:"


def is_path_role(role: str) -> bool:
    return role.startswith(ROLE)


def point_index(role: str) -> int:
    return int(role[len(ROLE):])


def middle(obj) -> Vec2:
    """Where an object's path is drawn from (:func:`~level_editor.editor.items.path_mark.path_middle`)."""
    return Vec2(*path_middle(obj))


def handle_points(obj) -> list[tuple[str, str, Vec2, QPointF]]:
    """``(role, style, scene point, knob offset)`` of a handle per path point (none when the object stays put)."""
    path = moving_path(obj)
    if path is None:
        return []
    m = middle(obj)
    return [(f"{ROLE}{k}", HandleItem.ROUND, Vec2(m.x + p.x, m.y + p.y), QPointF()) for k, p in enumerate(path.points)]


def with_point_moved(obj, index: int, scene: QPointF):
    """``obj`` with path point ``index`` under the scene point ``scene``."""
    path = moving_path(obj)
    m = middle(obj)
    points = list(path.points)
    points[index] = Vec2(scene.x() - m.x, scene.y() - m.y)
    return replace(obj, path=replace(path, points=tuple(points)))


def with_point_added(obj, scene: QPointF, reach: float):
    """``obj`` with a point inserted where ``scene`` is on its path (within ``reach``), or None when it is not on it."""
    path = moving_path(obj)
    if path is None:
        return None
    m = middle(obj)
    p = Vec2(scene.x() - m.x, scene.y() - m.y)
    points = list(path.points)
    legs = list(zip(points, points[1:]))
    if path.mode == "loop":
        legs.append((points[-1], points[0]))
    best = None
    for k, (a, b) in enumerate(legs):
        d = point_segment_distance_sq(p, a, b)
        if d <= reach * reach and (best is None or d < best[0]):
            best = (d, k)
    if best is None:
        return None
    k = best[1]
    a, b = legs[k]
    points.insert(k + 1, closest_point_on_segment(p, a, b))
    return replace(obj, path=replace(path, points=tuple(points)))


def with_point_removed(obj, index: int) -> Optional[object]:
    """``obj`` without path point ``index``; None when the path would have fewer than 2 points."""
    path = moving_path(obj)
    if path is None or len(path.points) <= 2:
        return None
    points = path.points[:index] + path.points[index + 1:]
    return replace(obj, path=replace(path, points=points))
