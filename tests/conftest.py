"""Test configuration shared by every test folder.

Qt runs offscreen in tests: set here, before any Qt import, so nobody has to
remember it on the command line or in CI.
"""
import atexit
import os
import shutil
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Recovery copies from tests go to a folder of their own, never the user's data folder.
if "LEVEL_EDITOR_DATA_DIR" not in os.environ:
    os.environ["LEVEL_EDITOR_DATA_DIR"] = tempfile.mkdtemp(prefix="level-editor-test-data-")
    atexit.register(shutil.rmtree, os.environ["LEVEL_EDITOR_DATA_DIR"], True)

from hypothesis import settings

# CI runs must be reproducible: the same examples every run (a failure prints its seed-free example).
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
