"""Test configuration shared by every test folder.

Qt runs offscreen in tests: set here, before any Qt import, so nobody has to
remember it on the command line or in CI.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import settings

# CI runs must be reproducible: the same examples every run (a failure prints its seed-free example).
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
