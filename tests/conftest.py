"""Test configuration shared by every test folder.

Qt runs offscreen in tests: set here, before any Qt import, so nobody has to
remember it on the command line or in CI.

Nothing a test does may reach the user's own settings, recent files or recovery
copies: every per-user folder Qt or the editor would use (``XDG_*``,
``LEVEL_EDITOR_DATA_DIR``, QSettings' user and system paths) points into one
temporary folder for the session, inherited by every subprocess a test starts.
tests/test_isolation.py checks it.
"""
import atexit
import logging
import os
import shutil
import tempfile

import pytest

#: The environment as the user had it, before this file redirected anything (pip needs its own config).
USER_ENVIRONMENT = dict(os.environ)

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

#: The session's stand-in for the user's home folders; removed when the session ends.
TEST_HOME = tempfile.mkdtemp(prefix="level-editor-test-home-")
atexit.register(shutil.rmtree, TEST_HOME, True)
# Qt on Linux and other XDG systems: QSettings under XDG_CONFIG_HOME, QStandardPaths' data folder (recovery
# copies) under XDG_DATA_HOME. Set unconditionally: a user's own values are exactly what must not be used.
for _name, _folder in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state")):
    os.environ[_name] = os.path.join(TEST_HOME, _folder)
# Recovery copies go to a folder of their own, never the user's data folder (core/level/recovery.py).
os.environ["LEVEL_EDITOR_DATA_DIR"] = os.path.join(TEST_HOME, "level-editor-data")

# Other platforms ignore XDG (macOS plists, the Windows registry): make QSettings() an INI file inside the test
# home everywhere. Must happen before any QSettings exists; pytest-qt has imported PySide6 already anyway.
from PySide6.QtCore import QSettings  # noqa: E402

QSettings.setDefaultFormat(QSettings.IniFormat)
for _scope, _folder in ((QSettings.UserScope, "config"), (QSettings.SystemScope, "system-config")):
    QSettings.setPath(QSettings.IniFormat, _scope, os.path.join(TEST_HOME, _folder))

from hypothesis import settings  # noqa: E402

# CI runs must be reproducible: the same examples every run (a failure prints its seed-free example).
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def isolated_home() -> str:
    """The session's temporary stand-in for the user's config and data folders."""
    return TEST_HOME


@pytest.fixture
def user_environment() -> dict:
    """The environment as it was before this file redirected the per-user folders (a copy).

    For tools that need the user's own configuration, like pip finding its index; never for the editor.
    """
    return dict(USER_ENVIRONMENT)


class _NestedPushes(logging.Handler):
    """What EditorContext.push logs when a command is pushed while another change is being made."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.pushes: list[tuple[str, str]] = []

    def emit(self, record):
        nested = getattr(record, "nested_push", None)
        if nested:
            self.pushes.append(nested)


@pytest.fixture(autouse=True)
def no_push_inside_another_change(request):
    """The tripwire of editor/canvas/context.py: a command pushed while another change (a push, Undo, Redo) is
    being made fails the test. The app orders such pushes and only logs them for a developer; here each one is
    a cause to find (a test that makes one on purpose is marked ``nested_push_expected``)."""
    if request.node.get_closest_marker("nested_push_expected") is not None:
        yield
        return
    logger = logging.getLogger("level-editor")
    handler, level = _NestedPushes(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    if handler.pushes:
        pytest.fail("pushed while another change was being made: "
                    + "; ".join(f"{inner!r} inside {outer!r}" for inner, outer in handler.pushes), pytrace=False)
