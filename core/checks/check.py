"""One check of a level: its problems and hulls from one set of outlines.

The command line (``check``, ``export``), the editor's Problems dock, its save
and the play-test's F5 all call :func:`check_level`, so they all see the same
problems for the same level. Callers that know where the level file is pass
its folder as ``base_dir``, so that reference images' pictures are looked at.

>>> from core.level.model import Box, Level
>>> result = check_level(Level(objects=(Box("box-1", (100, 100), (10, 10)),)), with_hulls=True)
>>> [p.severity for p in result.problems], sorted(result.hulls)
(['info'], ['box-1', 'level'])
"""
from __future__ import annotations

from dataclasses import dataclass

from core.checks.hulls import level_hulls
from core.checks.outlines import LevelOutlines, level_outlines
from core.checks.validation import validate_level
from core.level.model import Level
from core.level.problems import ERROR, LEVEL_ID, Problem

__all__ = ["CheckResult", "check_level", "add_hulls"]


@dataclass(frozen=True)
class CheckResult:
    """What one check found: the problems of ``level``, its hulls when asked for, and the outlines behind them.

    ``base_dir`` is the folder the pictures were looked for in (None: they were not).
    """

    level: Level
    problems: tuple
    hulls: dict | None = None
    outlines: LevelOutlines | None = None
    base_dir: str | None = None

    @property
    def errors(self) -> tuple:
        """The problems that are errors."""
        return tuple(p for p in self.problems if p.is_error)


def check_level(level: Level, with_hulls: bool = False, base_dir: str | None = None) -> CheckResult:
    """Validate ``level`` (and compute its hulls) from one set of outlines.

    ``base_dir`` is the folder of the level file: reference images' paths are
    relative to it, and without it the pictures are not looked at.

    A level the geometry code cannot handle gives one error problem instead of
    an exception (and empty hulls), so every caller can still say something.
    """
    outlines = None
    try:
        outlines = level_outlines(level)
        problems = tuple(validate_level(level, outlines, base_dir))
        hulls = level_hulls(level, outlines) if with_hulls else None
    except Exception as e:  # noqa: BLE001 - reported as a problem of the level; callers keep working
        problems = (Problem(LEVEL_ID, f"the level could not be checked: {e}", ERROR),)
        hulls = {} if with_hulls else None
    return CheckResult(level, problems, hulls, outlines, base_dir)


def add_hulls(result: CheckResult) -> CheckResult:
    """``result`` with its hulls, computed from its outlines when it has none yet."""
    if result.hulls is not None:
        return result
    if result.outlines is None:
        return check_level(result.level, with_hulls=True, base_dir=result.base_dir)
    try:
        hulls = level_hulls(result.level, result.outlines)
    except Exception:  # noqa: BLE001 - the check already reported why; a save still goes ahead
        hulls = {}
    return CheckResult(result.level, result.problems, hulls, result.outlines, result.base_dir)
