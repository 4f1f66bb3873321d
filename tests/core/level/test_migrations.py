"""The version-to-version migration registry."""
import pytest

from level_editor.core.level.file_format import LevelFileError, parse_level
from level_editor.core.level.migrations import CURRENT_VERSION, MIGRATIONS, MigrationError, migrate


def _v1_to_v2(doc):
    # An imagined next format that renames "objects" to "things".
    out = dict(doc)
    out["things"] = out.pop("objects")
    out["version"] = 2
    return out


def _v2_to_v3(doc):
    out = dict(doc)
    out["version"] = 3
    out["migrated"] = True
    return out


def test_current_version_passes_through_untouched():
    d = {"version": CURRENT_VERSION, "objects": []}
    assert migrate(d) is d


def test_chain_of_migrations_is_walked_in_order_without_touching_the_input():
    registry = {1: _v1_to_v2, 2: _v2_to_v3}
    d = {"version": 1, "objects": [{"id": "a"}]}
    out = migrate(d, registry, current=3)
    assert out == {"version": 3, "things": [{"id": "a"}], "migrated": True}
    assert d == {"version": 1, "objects": [{"id": "a"}]}


def test_a_gap_in_the_chain_is_refused():
    with pytest.raises(MigrationError, match="no migration from it"):
        migrate({"version": 1, "objects": []}, {1: _v1_to_v2}, current=3)


def test_newer_and_nonsense_versions_are_refused():
    for v in (CURRENT_VERSION + 1, 0, -1, "1", 1.5, True, None):  # 0 and -1: no migration from them
        with pytest.raises(MigrationError):
            migrate({"version": v})


def test_a_broken_migration_is_caught():
    with pytest.raises(MigrationError, match="did not produce version 2"):
        migrate({"version": 1}, {1: lambda d: d}, current=2)


def test_loader_runs_a_registered_migration(monkeypatch):
    """A file of an older version is upgraded through the registry when it is loaded."""

    def v1_from_v0(doc):
        # Version 0 kept walls in their own list.
        out = {k: v for k, v in doc.items() if k != "walls"}
        out["objects"] = [dict(w, kind="wall") for w in doc["walls"]]
        out["version"] = 1
        return out

    monkeypatch.setitem(MIGRATIONS, 0, v1_from_v0)
    level = parse_level({"format": "level-editor.level", "version": 0, "player": {"spawn": [0, 0], "radius": 4},
                         "walls": [{"id": "w", "points": [[0, 0], [9, 0]], "thickness": 2}]})
    assert [(o.id, o.kind) for o in level.objects] == [("w", "wall")]


def test_loader_refuses_an_old_version_without_a_migration():
    with pytest.raises(LevelFileError) as e:
        parse_level({"format": "level-editor.level", "version": 0, "player": {}, "objects": []})
    assert "version 0" in str(e.value)


def test_loader_refuses_future_version_naming_both():
    with pytest.raises(LevelFileError) as e:
        parse_level({"format": "level-editor.level", "version": 7, "player": {}, "objects": []})
    assert "7" in str(e.value) and "level-editor.level" in str(e.value)
