"""The headless commands of ``level-editor``: check, export (also to Tiled maps), import, simulate, and the
front half of render (reading and checking the level; the editor's painter draws it).

The installed ``level-editor`` command starts in :mod:`level_editor.editor.launcher`, which
opens the window for ``level-editor [LEVEL.json]`` and hands every other call
to :func:`main` here (core never imports the editor).

Every failure the user can cause (a bad path, a broken file, bad arguments)
ends in a one-line message and an exit code, never a traceback.
"""
from __future__ import annotations

import argparse
import codecs
import contextlib
import json
import math
import os
import re
import sys
from typing import Optional, Sequence

from level_editor.core import __version__
from level_editor.core.level.atomic import LevelSaveError, same_file, write_bytes_atomic
from level_editor.core.level.collector import paused_collector
from level_editor.core.level.file_format import LevelFileError, load_level, save_level
from level_editor.core.level.kinds import plural
from level_editor.core.level.pictures import pictures_moved
from level_editor.core.level.problems import INFO, WARNING, Problem

# The checks (numpy, shapely) and the Tiled formats are imported where a command needs them: ``render`` starts
# drawing while its level is checked in another process (see _cmd_render).

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_UNREADABLE = 2

#: The subcommands; anything else on the command line is a level for the editor to open.
COMMANDS = ("check", "export", "import", "simulate", "generate", "render")

_DESCRIPTION = """\
A 2D level editor with a built-in play-test.

  level-editor [LEVEL.json]                       open the editor (a new path becomes a new level)
  level-editor check LEVEL.json [...]             validate level files
  level-editor export LEVEL.json -o OUT.json      validate, then write the level with hulls
  level-editor export LEVEL.json -o OUT.tmj       ... or as a Tiled map (.tmj or .tmx, or --format tmj|tmx)
  level-editor import MAP.tmj -o LEVEL.json       read a Tiled map (.tmj or .tmx) into a level
  level-editor simulate LEVEL.json --input REPLAY.json [-o TRACE.json]
                                                  run a play-test headless from a replay
  level-editor generate -n N -o OUT.json          write a generated level of N objects
  level-editor render LEVEL.json -o OUT.png [--scale S]
                                                  draw the level as the game sees it into a PNG
"""


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad usage as one line and exit code 2 (never a traceback)."""

    def error(self, message):  # noqa: D401 - argparse's own name
        self.exit(EXIT_UNREADABLE, f"{self.prog}: error: {message}\n")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="level-editor",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"level-editor {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    p = sub.add_parser("check", help="validate level files; one line per problem",
                       description="Validate each level file. Prints 'PATH: OBJECT-ID: error: message' (or "
                                   "'warning: ') per problem, and 'PATH: ok (N objects, W warnings)' for a file "
                                   "without errors. Exit 0 valid, 1 problems found (warnings too with --strict), "
                                   "2 unreadable file or bad usage.")
    p.add_argument("levels", nargs="+", metavar="LEVEL.json")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also print information lines (e.g. whether the spawn's area is enclosed)")
    p.add_argument("--strict", action="store_true", help="warnings fail the check too (exit 1)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="json: one JSON list on stdout, an object per file with its problems")
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("export", help="validate, then write the level with hulls filled in, or as a Tiled map",
                       description="Validate LEVEL.json and write it to OUT.json with 'hulls' filled in, or as a "
                                   "Tiled map when OUT ends in .tmj or .tmx (or --format says so; the tilesets' "
                                   "pictures go beside it). Exit 0 written, 1 invalid (nothing written), 2 "
                                   "unreadable or bad usage.")
    p.add_argument("level", metavar="LEVEL.json")
    p.add_argument("-o", "--output", required=True, metavar="OUT.json")
    p.add_argument("--format", choices=("tmj", "tmx", "level"),
                   help="what to write (default: from OUT's ending: .tmj, .tmx, otherwise a level file)")
    p.set_defaults(func=_cmd_export)

    p = sub.add_parser("import", help="read a Tiled map (.tmj or .tmx) into a level",
                       description="Read MAP (a Tiled map, TMJ or TMX; templates and external tilesets resolved) "
                                   "and write it as a level. What a level cannot hold is named on stderr, one line "
                                   "per object. Exit 0 written, 2 unreadable, not a Tiled map, or bad usage.")
    p.add_argument("map", metavar="MAP.tmj")
    p.add_argument("-o", "--output", required=True, metavar="LEVEL.json")
    p.set_defaults(func=_cmd_import)

    p = sub.add_parser("generate", help="write a generated level of N objects (rooms, corridors, furniture)",
                       description="Write a generated level (rooms joined by corridors, wall chains, boxes, oriented "
                                   "boxes and pillars) for trying the editor and the play-test at scale.")
    p.add_argument("-n", "--objects", type=_count, required=True, metavar="N",
                   help=f"how many objects (at most {MAX_GENERATED:,})")
    p.add_argument("--seed", type=_seed, default=0, help="picks the furniture (default 0)")
    p.add_argument("--player", choices=("circle", "box"), default="circle", help="the player's shape")
    p.add_argument("-o", "--output", required=True, metavar="OUT.json")
    p.set_defaults(func=_cmd_generate)

    p = sub.add_parser("simulate", help="run the play-test headless from a replay; writes the trace",
                       description="Play REPLAY.json (version 1: a wished velocity per fixed tick; version 2: "
                                   "[move_x, move_y, jump] per tick) on LEVEL.json without a window and write the trace (the player's centre after each tick, and the "
                                   "non-solid areas it enters and leaves as 'events') to TRACE.json, or to stdout "
                                   "without -o. Exit 0 done, 2 bad input.")
    p.add_argument("level", metavar="LEVEL.json")
    p.add_argument("--input", required=True, metavar="REPLAY.json")
    p.add_argument("-o", "--output", metavar="TRACE.json")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("render", help="draw the level as the game sees it into a PNG",
                       description="Draw LEVEL.json as Tiled's tmxrasterizer draws a map: the art in layer order, "
                                   "objects without art in their type's colour, hidden layers left out, no grid, "
                                   "handles or labels; the picture covers the level's size (else its bounds). "
                                   "A picture that cannot be read is a warning and the rest is drawn. Exit 0 "
                                   "written, 1 invalid (nothing written), 2 unreadable or bad usage.")
    p.add_argument("level", metavar="LEVEL.json")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png")
    p.add_argument("--scale", type=_scale, default=1.0, metavar="S",
                   help="pixels per level unit (default 1)")
    p.set_defaults(func=_cmd_render)

    return parser


def _problem_line(path: str, p: Problem) -> str:
    """``PATH: OBJECT-ID: severity: message`` (the contract's ``PATH: OBJECT-ID: message``, severity first)."""
    return f"{path}: {p.object_id}: {p.severity}: {p.message}"


def _print_problems(path: str, problems: Sequence[Problem], out) -> None:
    _print_lines([_problem_line(path, p) for p in problems], out)


def _print_lines(lines: Sequence[str], out) -> None:
    try:
        for line in lines:
            print(line, file=out)
    except BrokenPipeError:
        _reader_gone(out)


def _reader_gone(stream) -> None:
    """The reader of ``stream`` has closed it (``| head``): send the rest nowhere, keep going.

    The command still finishes, so its exit code tells what it found; only
    the lines nobody reads are dropped.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, stream.fileno())
    except (OSError, ValueError):  # not a real file (a test's capture)
        pass
    finally:
        os.close(devnull)


def _bytes_or_escape(error: UnicodeEncodeError):
    """Encoding error handler: a path's undecodable bytes go out as they were, other characters as escapes."""
    bad = error.object[error.start:error.end]
    if all("\udc80" <= c <= "\udcff" for c in bad):
        return bytes(ord(c) - 0xDC00 for c in bad), error.end
    return codecs.backslashreplace_errors(error)


codecs.register_error("level-editor", _bytes_or_escape)


def _lenient_output() -> None:
    """Let stdout and stderr print any path and any id, whatever the terminal's encoding."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="level-editor")
        except (AttributeError, ValueError, OSError):
            pass


def _shown(problems, verbose: bool = False) -> list[Problem]:
    """Errors and warnings; information lines (not problems) only when ``verbose``."""
    return [p for p in problems if verbose or p.severity != INFO]


def _folder_of(path: str) -> str:
    """The folder of a level file: its reference pictures' paths are relative to it."""
    return os.path.dirname(os.path.abspath(path))


def _read(path: str, out):
    """Load ``path``; on failure print its problems and return (None, exit code)."""
    level, problems, status = _load(path)
    if level is None:
        _print_problems(path, problems, out)
    return level, status


def _load(path: str):
    """``(level, (), 0)``, or ``(None, problems, exit code)`` for a file that does not load."""
    try:
        return load_level(path), (), EXIT_OK
    except LevelFileError as e:
        return None, e.problems, (EXIT_UNREADABLE if e.unreadable else EXIT_PROBLEMS)


def _cmd_check(args) -> int:
    code = EXIT_OK
    report = []
    for path in args.levels:
        level, problems, status = _load(path)
        count = None
        if level is not None:
            count = len(level.objects)
            problems = _shown(_check(level, base_dir=_folder_of(path)).problems, args.verbose)
            failing = [p for p in problems if p.is_error or (args.strict and p.severity == WARNING)]
            status = EXIT_PROBLEMS if failing else EXIT_OK
        code = max(code, status)
        warnings = sum(p.severity == WARNING for p in problems)
        if args.format == "json":
            report.append({
                "path": path,
                "status": ("ok", "problems", "unreadable")[status],
                "objects": count,
                "errors": sum(p.is_error for p in problems),
                "warnings": warnings,
                "problems": [{"path": path, "object_id": p.object_id, "severity": p.severity,
                              "message": p.message} for p in problems],
            })
            continue
        lines = [_problem_line(path, p) for p in problems]
        if status == EXIT_OK:
            lines.append(f"{path}: ok ({plural(count, 'object')}, {plural(warnings, 'warning')})")
        _print_lines(lines, sys.stdout)
    if args.format == "json":
        _print_lines([json.dumps(report, ensure_ascii=False, indent=2)], sys.stdout)
    return code


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    r"""``text`` on one line: line breaks and other control characters (from names in a hostile file) escaped.

    >>> print(one_line("layer a\nb: tab\there"))
    layer a\nb: tab\there
    """
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def _cmd_export(args) -> int:
    level, status = _read(args.level, sys.stderr)
    if level is None:
        return status
    result = _check(level, with_hulls=True, base_dir=_folder_of(args.level))
    problems = _shown(result.problems)
    _print_problems(args.level, problems, sys.stderr)
    if any(p.is_error for p in problems):
        print(f"level-editor: {args.level} has errors; nothing written", file=sys.stderr)
        return EXIT_PROBLEMS
    from level_editor.core.interop import tiled_format

    fmt = args.format or tiled_format(args.output) or "level"
    if fmt != "level":
        if _refuse_over(args.output, ("level", args.level)):
            return EXIT_UNREADABLE
        return _write_tiled(level, args, fmt)
    # written in another folder, the level names the same pictures from there
    return _write(pictures_moved(level, _folder_of(args.level), _folder_of(args.output)), args.output, result.hulls)


def _write_tiled(level, args, fmt: str) -> int:
    """Write ``level`` as a Tiled map; a level the map cannot hold is exit code 1, a failed write 2."""
    from level_editor.core.interop import TiledExportError, write_tiled

    try:
        notes = write_tiled(level, args.output, fmt, level_dir=_folder_of(args.level))
    except TiledExportError as e:
        for line in e.problems:
            print(f"{args.level}: {line}", file=sys.stderr)
        print(f"level-editor: {args.level} cannot be a Tiled map; nothing written", file=sys.stderr)
        return EXIT_PROBLEMS
    except LevelSaveError as e:
        print(f"level-editor: {e}", file=sys.stderr)
        return EXIT_UNREADABLE
    for note in notes:
        print(f"{args.level}: {note}", file=sys.stderr)
    return EXIT_OK


def _cmd_import(args) -> int:
    from level_editor.core.interop.tiled_import import TiledImportError, read_tiled

    level_dir = _folder_of(args.output)
    if _refuse_over(args.output, ("map", args.map)):
        return EXIT_UNREADABLE
    try:
        result = read_tiled(args.map, level_dir=level_dir)
    except TiledImportError as e:
        print(f"level-editor: {one_line(str(e))}", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        for note in result.notes:
            print(f"{args.map}: {one_line(note)}", file=sys.stderr)
    except BrokenPipeError:
        _reader_gone(sys.stderr)
    hulls = _check(result.level, with_hulls=True, base_dir=level_dir).hulls
    return _write(result.level, args.output, hulls)


def _write(level, path: str, hulls=None) -> int:
    """Save ``level`` at ``path`` (atomically); a failure is one line and exit code 2."""
    try:
        save_level(level, path, hulls=hulls)
    except LevelSaveError as e:
        print(f"level-editor: {e}", file=sys.stderr)
        return EXIT_UNREADABLE
    return EXIT_OK


#: The most objects ``generate`` writes (a level beyond it is larger than the limits let a level be).
MAX_GENERATED = 1_000_000


def _short(text: str, most: int = 40) -> str:
    """``text`` quoted for a message, cut to ``most`` characters (a number of 5,000 digits is not echoed whole)."""
    shown = repr(text)
    return shown if len(shown) <= most else shown[:most - 4] + "...'"


def _whole(text: str) -> int:
    if len(text) > 100 and text.strip().lstrip("+-").isdigit():
        raise argparse.ArgumentTypeError(f"a number of {len(text.strip())} digits is too large")
    try:
        return int(text) if len(text) <= 100 else int("x")
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {_short(text)}") from None


def _count(text: str) -> int:
    n = _whole(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {n}")
    if n > MAX_GENERATED:
        raise argparse.ArgumentTypeError(f"at most {MAX_GENERATED:,} objects, not {n:,}")
    return n


def _seed(text: str) -> int:
    return _whole(text)


def _refuse_over(output: str, *inputs: tuple[str, str]) -> bool:
    """Say so and return True when ``output`` is one of the ``(what, path)`` inputs: writing would destroy it."""
    for what, path in inputs:
        if same_file(output, path):
            print(f"level-editor: {output}: is the {what} itself; nothing written (name another output file)",
                  file=sys.stderr)
            return True
    return False


def _scale(text: str) -> float:
    try:
        value = float(text) if len(text) <= 100 else float("x")
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {_short(text)}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number more than 0, not {_short(text)}")
    return value


def _check(level, **options):
    from level_editor.core.checks.check import check_level

    return check_level(level, **options)


def _cmd_render(args) -> int:
    draw = getattr(args, "render_with", None)
    if draw is None:  # core draws nothing: the editor's launcher hands its painter over
        print("level-editor: render needs the editor's painter (Qt); run it as `level-editor render`",
              file=sys.stderr)
        return EXIT_UNREADABLE
    if _refuse_over(args.output, ("level", args.level)):
        return EXIT_UNREADABLE
    level, status = _read(args.level, sys.stderr)
    if level is None:
        return status
    folder = _folder_of(args.level)
    # The check runs beside the drawing, in a process of its own where it can (a thread elsewhere): a level with
    # errors is still refused and nothing is written, but its check costs the render little or no time.
    from level_editor.core.work import background_call

    checking = background_call.start(lambda stop: _check(level, base_dir=folder, stop=stop).problems, nice=0)
    try:
        try:
            picture, notes = draw(level, folder, args.scale)
            failure = None
        except (ValueError, MemoryError) as e:  # a picture larger than Qt can hold
            picture, notes = None, []
            failure = one_line(_describe(e) if isinstance(e, MemoryError) else str(e))
        problems = _shown(checking.wait())
    finally:
        checking.stop()
    _print_problems(args.level, problems, sys.stderr)
    if any(p.is_error for p in problems):
        print(f"level-editor: {args.level} has errors; nothing written", file=sys.stderr)
        return EXIT_PROBLEMS
    if failure is not None:
        print(f"level-editor: {args.level}: {failure}; nothing written", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        write_bytes_atomic(args.output, picture)
    except LevelSaveError as e:
        print(f"level-editor: {e}", file=sys.stderr)
        return EXIT_UNREADABLE
    _print_lines([f"{args.level}: {one_line(note)}" for note in notes], sys.stderr)
    return EXIT_OK


def _cmd_generate(args) -> int:
    from level_editor.core.level.generate import generate_level

    return _write(generate_level(args.objects, seed=args.seed, player_shape=args.player), args.output)


def _cmd_simulate(args) -> int:
    from level_editor.core.playtest.replay import ReplayFileError, dumps_trace, load_replay, save_trace
    from level_editor.core.playtest.simulation import VELOCITIES_ON_A_PLATFORMER, run_replay

    if args.output and _refuse_over(args.output, ("level", args.level), ("replay", args.input)):
        return EXIT_UNREADABLE
    try:
        level = load_level(args.level)
    except LevelFileError as e:
        first = e.problems[0] if e.problems else "not a valid level"
        more = f" (and {len(e.problems) - 1} more problems)" if len(e.problems) > 1 else ""
        print(f"level-editor: {args.level}: {first}{more}", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        replay = load_replay(args.input)
        if replay.version == 1 and level.player.controller == "platformer":
            raise ReplayFileError(args.input, VELOCITIES_ON_A_PLATFORMER)
        trace = run_replay(level, replay)
        if args.output:
            save_trace(args.output, trace)
        else:
            sys.stdout.write(dumps_trace(trace) + "\n")
    except ReplayFileError as e:
        print(f"level-editor: {one_line(str(e))}", file=sys.stderr)
        return EXIT_UNREADABLE
    except LevelSaveError as e:
        print(f"level-editor: {e}", file=sys.stderr)
        return EXIT_UNREADABLE
    except (ValueError, TypeError, OverflowError, ArithmeticError, RecursionError, MemoryError) as e:
        print(f"level-editor: cannot simulate {args.level}: {_describe(e)}", file=sys.stderr)
        return EXIT_UNREADABLE
    return EXIT_OK


def _describe(error: BaseException) -> str:
    """An exception in one line that is never empty (``MemoryError()`` says nothing by itself)."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def main(argv: Optional[Sequence[str]] = None, render_with=None) -> int:
    """Entry point of the ``level-editor`` command; returns the exit code.

    ``render_with(level, base_folder, scale) -> (PNG bytes, warning lines)`` draws for ``render`` (the editor's
    painter: core never imports Qt); it raises ValueError for a picture that cannot be made.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    _lenient_output()
    try:
        parser = _build_parser()
        args = parser.parse_args(argv)
        args.render_with = render_with
        output = getattr(args, "output", None)
        if output is not None and (not output.strip() or output.endswith(("/", os.sep))):
            parser.error(f"-o/--output {output!r} names no file" + (" (it ends in a slash: a folder)"
                                                                   if output.strip() else ""))
        if getattr(args, "func", None) is None:
            parser.error("name a command (check, export, import, simulate, generate, render); "
                         "`level-editor LEVEL.json` opens the editor")
        # A short-lived command makes millions of objects and almost no cycles: without the pause the
        # collector walks the whole level again and again (a third of a large check).
        with paused_collector() if args.command != "generate" else contextlib.nullcontext():
            code = args.func(args)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # a trace or help cut short by its reader
        _reader_gone(sys.stdout)
        return EXIT_OK
    except Exception as e:  # noqa: BLE001 - the promise: one line and an exit code, never a traceback
        print(f"level-editor: {' '.join(argv[:1]) or 'command'} failed: {_describe(e)}", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        if sys.stdout is not None:
            sys.stdout.flush()  # lines still buffered meet a closed pipe here, not at exit
    except BrokenPipeError:
        _reader_gone(sys.stdout)
    return code


if __name__ == "__main__":
    sys.exit(main())
