"""One check of a level: its problems and hulls from one set of outlines.

The command line (``check``, ``export``), the editor's Problems dock, its save
and the play-test's F5 all call :func:`check_level`, so they all see the same
problems for the same level. Callers that know where the level file is pass
its folder as ``base_dir``, so that reference images' pictures are looked at.

>>> from level_editor.core.level.model import Box, Level
>>> result = check_level(Level(objects=(Box("box-1", (100, 100), (10, 10)),)), with_hulls=True)
>>> [p.severity for p in result.problems], sorted(result.hulls)
(['info'], ['box-1', 'level'])
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from level_editor.core.checks.hulls import level_hulls
from level_editor.core.checks.outlines import LevelOutlines, Stopped, level_outlines
from level_editor.core.checks.validation import picture_warnings, validate_level
from level_editor.core.level.model import Level
from level_editor.core.level.problems import ERROR, LEVEL_ID, Problem

__all__ = ["CheckResult", "check_level", "add_hulls", "level_hulls_only", "add_problems"]


@dataclass(frozen=True)
class CheckResult:
    """What one check found: the problems of ``level``, its hulls when asked for, and the outlines behind them.

    ``base_dir`` is the folder the pictures were looked for in (None: they were not). ``problems`` is
    None when the level was not validated (:func:`level_hulls_only`).
    """

    level: Level
    problems: tuple | None
    hulls: Mapping | None = None
    outlines: LevelOutlines | None = None
    base_dir: str | None = None

    @property
    def errors(self) -> tuple:
        """The problems that are errors (none when the level was not validated)."""
        return tuple(p for p in self.problems or () if p.is_error)


class _Stopped(Stopped):
    """The caller of :func:`check_level` asked it to stop."""


def check_level(level: Level, with_hulls: bool = False, base_dir: str | None = None,
                stop: Callable[[], bool] | None = None) -> CheckResult | None:
    """Validate ``level`` (and compute its hulls) from one set of outlines.

    ``base_dir`` is the folder of the level file: reference images' paths are
    relative to it, and without it the pictures are not looked at.

    A level the geometry code cannot handle gives one error problem instead of
    an exception (and empty hulls), so every caller can still say something.

    ``stop``, when given, is asked between the steps (outlines, problems, hulls): when it says
    True the check ends there and returns None (a background check of a level that is no longer
    open leaves the machine to a save).
    """
    try:
        outlines, problems, hulls = _check(level, with_hulls, base_dir, stop)
    except Stopped:  # also from within the outlines, which look at ``stop`` every few thousand objects
        return None
    except Exception as error:  # noqa: BLE001 - blamed on the objects that cause it; callers keep working
        outlines, problems, hulls = _check_without_culprits(level, with_hulls, base_dir, error)
    return CheckResult(level, problems, hulls, outlines, base_dir)


def _check(level: Level, with_hulls: bool, base_dir: str | None, stop: Callable[[], bool] | None = None):
    outlines = level_outlines(level, stop=stop)
    if stop is not None and stop():
        raise _Stopped
    problems = tuple(validate_level(level, outlines, base_dir))
    if stop is not None and stop() and with_hulls:
        raise _Stopped
    hulls = level_hulls(level, outlines) if with_hulls else None
    return outlines, problems, hulls


def _fails(level: Level, objects: list) -> bool:
    try:
        _check(replace(level, objects=tuple(objects)), True, None)
    except Exception:  # noqa: BLE001 - the question asked is whether it fails
        return True
    return False


def _culprits(level: Level, objects: list) -> list:
    """The objects among ``objects`` that make the geometry code fail on their own, found by halving."""
    if not objects or not _fails(level, objects):
        return []
    if len(objects) == 1:
        return objects
    half = len(objects) // 2
    return _culprits(level, objects[:half]) + _culprits(level, objects[half:])


def _check_without_culprits(level: Level, with_hulls: bool, base_dir: str | None, error: Exception):
    """When the geometry code fails on a level: the objects that make it fail become errors, the rest is checked.

    Sound numbers are already screened (see :class:`~level_editor.core.checks.outlines.Unfit`), so this is the net
    under it: each object that fails on its own is found by halving the level, reported in words, and
    left out; if the failure comes from no single object, the level gets one problem that says so.
    """
    culprits = _culprits(level, list(level.objects))
    reason = _reason(error)
    if culprits:
        rest = replace(level, objects=tuple(o for o in level.objects if not any(o is c for c in culprits)))
        blamed = tuple(Problem(c.id, f"the shape of this object cannot be measured ({reason}); check its "
                                     f"numbers (nodes, sizes, position)", ERROR) for c in culprits)
        try:
            outlines, problems, hulls = _check(rest, with_hulls, base_dir)
            return outlines, blamed + problems, hulls
        except Exception as again:  # noqa: BLE001 - falls through to the level's problem
            reason = _reason(again)
    problem = Problem(LEVEL_ID, f"the shapes of this level cannot be measured together ({reason}); the "
                                f"problems and hulls could not be worked out", ERROR)
    return None, (problem,), ({} if with_hulls else None)


def _reason(error: Exception) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def add_hulls(result: CheckResult) -> CheckResult:
    """``result`` with its hulls, computed from its outlines when it has none yet."""
    if result.hulls is not None:
        return result
    if result.outlines is None:
        if result.problems is not None:
            # validated, its outlines let go since (the editor keeps no outlines: ~300 MB at 100,000 objects):
            # the hulls come straight from the objects, as a large save's do (level_hulls_only)
            try:
                return replace(result, hulls=level_hulls(result.level))
            except Exception:  # noqa: BLE001 - the full check says which objects the geometry code fails on
                pass
        return check_level(result.level, with_hulls=True, base_dir=result.base_dir)
    try:
        hulls = level_hulls(result.level, result.outlines)
    except Exception:  # noqa: BLE001 - the check already reported why; a save still goes ahead
        hulls = {}
    return CheckResult(result.level, result.problems, hulls, result.outlines, result.base_dir)


def level_hulls_only(level: Level, base_dir: str | None = None) -> CheckResult:
    """The hulls of ``level`` without validating it (``problems`` is None): for a save of a large level.

    The file needs its hulls, not its problems, which :func:`add_problems` adds later. The hulls
    are gathered straight from the objects, without building their outlines (shapely geometry for
    every object). A level the geometry code cannot handle gets its full check instead (which says
    why, object by object).
    """
    try:
        hulls = level_hulls(level)
    except Exception:  # noqa: BLE001 - check_level blames the objects at fault, or the level
        return check_level(level, with_hulls=True, base_dir=base_dir)
    return CheckResult(level, None, hulls, None, base_dir)


def pictures_looked_for_in(result: CheckResult, level: Level, base_dir: str | None) -> CheckResult:
    """``result`` made the check of ``level``: its level with the pictures named from another folder (a save
    elsewhere), looked for from ``base_dir``. Only the pictures are looked at again: nothing else changed, and
    the outlines and hulls hold as they are.
    """
    if result.problems is None or (base_dir == result.base_dir and level is result.level):
        return replace(result, level=level, base_dir=base_dir)
    stale = set()
    if result.base_dir is not None:
        seen: dict = {}
        stale = {(w.object_id, w.message) for w in picture_warnings(result.level, result.base_dir, seen)}
    problems = [p for p in result.problems if (p.object_id, p.message) not in stale]
    if base_dir is not None:
        seen = {}
        problems += picture_warnings(level, base_dir, seen)
    return replace(result, level=level, problems=tuple(problems), base_dir=base_dir)


def add_problems(result: CheckResult) -> CheckResult:
    """``result`` validated, from its outlines, when it has no problems yet (:func:`level_hulls_only`)."""
    if result.problems is not None:
        return result
    if result.outlines is None:
        checked = check_level(result.level, with_hulls=result.hulls is None, base_dir=result.base_dir)
        return checked if result.hulls is None else replace(checked, hulls=result.hulls)
    try:
        problems = tuple(validate_level(result.level, result.outlines, result.base_dir))
    except Exception:  # noqa: BLE001 - the full check says which objects the geometry code fails on
        return check_level(result.level, with_hulls=result.hulls is not None, base_dir=result.base_dir)
    return CheckResult(result.level, problems, result.hulls, result.outlines, result.base_dir)
