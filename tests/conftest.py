"""Test configuration shared by every test folder.

Qt runs offscreen in tests: set here, before any Qt import, so nobody has to
remember it on the command line or in CI.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
