"""The ``level-editor`` command: opens the editor, or runs a headless command from core.

Kept free of Qt imports until a window (or ``render``'s painter) is really wanted, so ``check``,
``export`` and ``simulate`` start fast and run on machines without a screen.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

from level_editor.core import cli


def main(argv: Optional[Sequence[str]] = None) -> int:
    as_command = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "render":
        # drawing needs Qt, which core never imports: the painter is handed over (on the offscreen platform)
        code = cli.main(argv, render_with=_render)
        if as_command:
            _leave(code)
        return code
    if argv and (argv[0] in cli.COMMANDS or argv[0].startswith("-")):
        return cli.main(argv)
    parser = argparse.ArgumentParser(prog="level-editor", description="Open the level editor.")
    parser.add_argument("level", nargs="?", metavar="LEVEL.json",
                        help="the level to open; a path that does not exist yet becomes a new level saved there")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    problem = _path_problem(args.level) if args.level else None
    if problem:
        print("level-editor: " + cli.one_line(f"{args.level}: {problem}"), file=sys.stderr)
        return cli.EXIT_UNREADABLE
    from level_editor.editor.app import run

    return run(args.level)


def _render(level, base_folder, scale):
    """``render``'s painter, loading Qt only now: the level's check has started (on another core where it can)."""
    from level_editor.editor.painting.render import run_render

    return run_render(level, base_folder, scale)


def _leave(code: int) -> None:
    """End the ``render`` command now that the picture is written and its lines are printed.

    Python would go on to tear down Qt and every module one by one (about 40 ms, an eighth of rendering a small
    map) with nothing left to write: only what is printed still waits in a buffer.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the reader has gone (| head), or there is no console
            pass
    os._exit(code)


def _path_problem(path: str) -> Optional[str]:
    """Why ``path`` can be neither a level to open nor a new level to save there (None: it can be).

    A file that is there is the open's to judge (it names a pipe, a device, a broken file in a dialog); a path
    that is not there yet must be one Save can write, or the designer learns it only after the work is done.
    """
    if os.path.isdir(path):
        return "is a folder, not a level file"
    if os.path.lexists(path):
        return None
    if path.endswith(("/", os.sep)):
        return "ends in a slash, so it names a folder, not a level file"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(folder):
        return f"its folder {folder} does not exist, so a new level could not be saved there"
    if not os.path.isdir(folder):
        return "a part of its path is a file, not a folder, so a new level could not be saved there"
    return None


if __name__ == "__main__":
    sys.exit(main())
