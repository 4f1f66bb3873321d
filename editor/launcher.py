"""The ``level-editor`` command: opens the editor, or runs a headless command from core.

Kept free of Qt imports until a window is really wanted, so ``check``,
``export`` and ``simulate`` start fast and run on machines without a screen.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

from core import cli


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and (argv[0] in cli.COMMANDS or argv[0].startswith("-")):
        return cli.main(argv)
    parser = argparse.ArgumentParser(prog="level-editor", description="Open the level editor.")
    parser.add_argument("level", nargs="?", metavar="LEVEL.json",
                        help="the level to open; a path that does not exist yet becomes a new level saved there")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    if args.level and os.path.isdir(args.level):
        print(f"level-editor: {args.level} is a folder, not a level file", file=sys.stderr)
        return cli.EXIT_UNREADABLE
    from editor.app import run

    return run(args.level)


if __name__ == "__main__":
    sys.exit(main())
