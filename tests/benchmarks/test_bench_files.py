"""bench_files runs end to end on small levels and prints its table (the figures themselves are machine-dependent)."""
from __future__ import annotations

from tests.benchmarks import bench_files


def test_the_table_has_a_row_per_size_and_the_ratios(tmp_path, capsys):
    assert bench_files.main(["--sizes", "40", "120", "--repeat", "1", "--folder", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| 40 |") or line.startswith("| 120 |")]
    assert len(rows) == 2 and all(row.count(" s / ") == 5 and " MB)" in row for row in rows)
    for step in ("check", "export", "load"):
        assert f"per-object time of `{step}`, 120 over 40: " in out
    assert "at 120: `check` " in out and "x `json.load`" in out
    assert (tmp_path / "level-120.json").is_file() and (tmp_path / "out-120.json").is_file()
