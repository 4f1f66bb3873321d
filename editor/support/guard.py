"""The boundary between Qt and our Python code: no exception may leave a Qt virtual.

PySide6 calls our overrides (mouse and key events, ``paint``, ``itemChange``, slots) from C++. An
exception raised there either prints and leaves the widget half-updated or, in some overrides, takes
the whole process down. Every override that does real work is wrapped with :func:`guarded`: the
exception is caught, the gesture in progress is abandoned, and the designer is told in words, through
the handler the main window installs (:func:`set_error_handler`). The document is never touched by the
guard: only undo commands change it, so a failed action leaves it as it was.

>>> calls = []
>>> before = set_error_handler(lambda where, error, explicit: calls.append((where, str(error))))
>>> @guarded("dividing", default=0)
... def divide(a, b):
...     return a / b
>>> divide(1, 0)
0
>>> calls
[('dividing', 'division by zero')]
>>> _ = set_error_handler(before)  # the handler that was there before
"""
from __future__ import annotations

import functools
import logging
import re
import sys
import traceback
from typing import Any, Callable

log = logging.getLogger("level-editor")

#: ``handler(where, error, explicit)``: ``explicit`` is True for an action the designer chose (a menu entry, a
#: button), which deserves a dialog; False for errors in events (a mouse move), which must never open one each.
ErrorHandler = Callable[[str, BaseException, bool], None]
_handler: ErrorHandler | None = None
_reporting = False


def set_error_handler(handler: ErrorHandler | None) -> ErrorHandler | None:
    """Install the function that tells the designer about a caught error (``None``: print it to stderr).

    Returns the one it replaces, to put back (as :func:`signal.signal` does).
    """
    global _handler
    previous, _handler = _handler, handler
    return previous


def report_error(where: str, error: BaseException, explicit: bool = False) -> None:
    """Tell the designer that ``where`` (an action in their words: "moving the selection") failed.

    ``explicit``: the designer asked for it (a menu action), so the handler may show a dialog.
    """
    global _reporting
    log.error("error while %s", where, exc_info=(type(error), error, error.__traceback__))
    if _reporting:  # an error inside the handler itself: never recurse
        traceback.print_exception(type(error), error, error.__traceback__, file=sys.stderr)
        return
    _reporting = True
    try:
        if _handler is None:
            print(f"level-editor: error while {where}: {describe(error)}", file=sys.stderr)
        else:
            _handler(where, error, explicit)
    except Exception:  # the handler failed: fall back to stderr, never raise into Qt
        traceback.print_exc(file=sys.stderr)
    finally:
        _reporting = False


#: PySide6 re-raises an error from a nested override with this before the original message.
_OVERRIDE_PREFIX = re.compile(r"^(Error calling Python override of [^:]*::[^(]*\(\)(: )?)+")


def describe(error: BaseException) -> str:
    """A one-line description of ``error`` that is never empty.

    >>> describe(OverflowError("Error calling Python override of QGraphicsScene::mousePressEvent(): too big"))
    'too big (OverflowError)'
    >>> describe(KeyError())
    'KeyError'
    """
    text = _OVERRIDE_PREFIX.sub("", str(error).strip())
    text = text.splitlines()[0].strip() if text else ""
    name = type(error).__name__
    return f"{text} ({name})" if text else name


def guarded(where: str, default: Any = None, *, explicit: bool = False,
            cleanup: Callable[..., Any] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wrap a Qt override or slot so that an exception is reported and ``default`` returned instead.

    ``explicit``: the function is an action the designer chose (see :func:`report_error`).
    ``cleanup`` is called with the same arguments after a failure, before the report (a canvas
    abandons the gesture in progress); a failing cleanup is reported too, never raised.
    """
    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def safe(*args: Any, **kwargs: Any) -> Any:
            try:
                return function(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - this is the boundary; it reports, never hides
                if cleanup is not None:
                    try:
                        cleanup(*args, **kwargs)
                    except Exception as cleanup_error:  # noqa: BLE001
                        log.error("cleaning up after %s failed", where, exc_info=cleanup_error)
                report_error(where, error, explicit)
                return default
        return safe
    return wrap
