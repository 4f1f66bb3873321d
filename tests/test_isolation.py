"""The test suite never writes the user's own settings, recent files or recovery copies (tests/conftest.py).

Running the tests once left ``/tmp/pytest-of-…`` entries in the real Open Recent menu; these tests pin down
where the editor's settings and recovery folder are during a test session, in this process and in the
editors that tests start as subprocesses.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from level_editor.editor import app
from level_editor.editor.documents.autosave import default_recovery_folder
from level_editor.editor.window.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[1]

# What a freshly started editor would use: the names level_editor.editor.app.application() gives the application.
WHERE_AN_EDITOR_WRITES = """
import json
from PySide6.QtCore import QCoreApplication, QSettings
from level_editor.editor.documents.autosave import default_recovery_folder
from level_editor.editor.documents.files import APP_NAME
QCoreApplication.setOrganizationName("level-editor")
QCoreApplication.setApplicationName(APP_NAME)
print(json.dumps({"settings": QSettings().fileName(), "recovery": default_recovery_folder()}))
"""


def inside(path: str, folder: str) -> bool:
    return os.path.commonpath([os.path.realpath(path), os.path.realpath(folder)]) == os.path.realpath(folder)


def where_an_editor_writes(env: dict) -> dict:
    env = dict(env, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, "-c", WHERE_AN_EDITOR_WRITES], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_the_editor_s_own_settings_and_recovery_folder_are_in_the_test_home(qtbot, isolated_home):
    app.application()  # the organisation and application names the real editor runs under
    window = MainWindow()  # the settings a window makes for itself, as `level-editor` does
    qtbot.addWidget(window)
    assert inside(QSettings().fileName(), isolated_home), QSettings().fileName()
    assert inside(window.settings.fileName(), isolated_home), window.settings.fileName()
    assert inside(default_recovery_folder(), isolated_home), default_recovery_folder()
    assert inside(window.autosave.folder, isolated_home), window.autosave.folder


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Qt's data folder follows XDG_DATA_HOME on Linux")
def test_the_recovery_folder_stays_in_the_test_home_without_the_override(monkeypatch, isolated_home):
    monkeypatch.delenv("LEVEL_EDITOR_DATA_DIR")
    app.application()
    assert inside(default_recovery_folder(), isolated_home), default_recovery_folder()


def test_an_editor_a_test_starts_writes_in_the_test_home_and_a_user_s_editor_does_not(isolated_home,
                                                                                     user_environment):
    ours = where_an_editor_writes(dict(os.environ))
    assert inside(ours["settings"], isolated_home), ours
    assert inside(ours["recovery"], isolated_home), ours

    theirs = where_an_editor_writes(user_environment)
    assert not inside(theirs["settings"], isolated_home), theirs
    assert theirs["settings"] != ours["settings"]


def test_opening_a_file_adds_it_to_the_test_home_s_recent_files_only(qtbot, tmp_path, isolated_home, user_environment):
    level = tmp_path / "recent-probe.json"
    shutil.copy(ROOT / "levels" / "showcase.json", level)
    real = where_an_editor_writes(user_environment)["settings"]
    before = Path(real).read_bytes() if os.path.exists(real) else None

    app.application()
    window = MainWindow()
    qtbot.addWidget(window)
    window.open_file(str(level), ask=False)
    window.settings.sync()

    assert window.recent_files()[0] == str(level)
    assert str(level) in QSettings(window.settings.fileName(), QSettings.IniFormat).value("recentFiles", [])
    assert inside(window.settings.fileName(), isolated_home)
    after = Path(real).read_bytes() if os.path.exists(real) else None
    assert after == before, f"{real} changed"
