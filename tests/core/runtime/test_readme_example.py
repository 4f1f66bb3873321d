"""The README's "Using a level in your game" example prints what the README says it prints."""
from __future__ import annotations

import re
import subprocess
import sys

from tests.core.runtime.helpers import ROOT


def test_the_readme_example_runs_as_shown():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Using a level in your game", 1)[1].split("\n## ", 1)[0]
    code, shown = re.search(r"```python\n(.*?)```\n\n```\n(.*?)```", section, re.DOTALL).groups()
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout == shown
