"""The Qt application on top of core/."""
import sys as _sys

if _sys.implementation.name == "cpython" and _sys.version_info < (3, 12):
    # PySide6 6.12's limited-API build returns None from every void method without
    # taking a reference; Python 3.12+ never frees None, but 3.11 aborts with
    # "deallocating None" after a few thousand calls (a few seconds of drawing).
    # Give None, True and False enough references to outlive any session, as 3.12 does.
    import ctypes as _ctypes

    for _singleton in (None, True, False):
        _ctypes.c_ssize_t.from_address(id(_singleton)).value += 1 << 40
    del _ctypes, _singleton
