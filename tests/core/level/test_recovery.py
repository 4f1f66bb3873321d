"""Recovery copies (core/recovery.py): naming, the header, atomic writes, dead sessions, removal."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from level_editor.core.level import atomic
from level_editor.core.level.model import Box, Level, Pillar, Player
from level_editor.core.level.atomic import LevelSaveError
from level_editor.core.level.file_format import LevelFileError, save_level
from level_editor.core.level.recovery import (
    DATA_DIR_ENV,
    FORMAT,
    STALE_AFTER,
    RecoveryCopy,
    dead_copies,
    is_dead,
    list_copies,
    load_recovery,
    pid_alive,
    read_header,
    recovery_file_name,
    recovery_folder,
    remove_copy,
    remove_stray_temp_files,
    touch,
    write_recovery,
)


def level(name="Castle", n=3) -> Level:
    return Level(name=name, grid=16, player=Player(spawn=(8, 8), radius=6),
                 objects=tuple(Box(f"box-{i}", (40 * i + 20, 0), (16, 16)) for i in range(n))
                 + (Pillar("pillar-1", (-50, -50), 9.5),))


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def rewrite_header(path, **changes):
    with open(path, encoding="utf-8") as f:
        head, rest = f.readline(), f.read()
    data = json.loads(head)
    data.update(changes)
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(data) + "\n" + rest)


def test_the_folder_is_the_data_folder_unless_the_environment_says_otherwise(monkeypatch):
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    assert recovery_folder("/home/d/.local/share/ed") == os.path.join("/home/d/.local/share/ed", "recovery")
    monkeypatch.setenv(DATA_DIR_ENV, "/tmp/elsewhere")
    assert recovery_folder("/home/d/.local/share/ed") == os.path.join("/tmp/elsewhere", "recovery")


def test_names_tie_a_copy_to_its_level_and_session():
    a = recovery_file_name("/levels/castle.json", "s1")
    assert a.startswith("castle.") and a.endswith(".s1.recovery.json")
    assert recovery_file_name("/levels/castle.json", "s1") == a
    assert recovery_file_name("/other/castle.json", "s1") != a  # same name, another folder
    assert recovery_file_name("/levels/castle.json", "s2") != a  # two editors on one level
    assert recovery_file_name(None, "s1") == "untitled.s1.recovery.json"
    odd = recovery_file_name("/levels/../x/мой уровень?.json", "a/b")
    assert "/" not in odd and "?" not in odd and " " not in odd


def test_a_copy_holds_the_level_and_a_header(tmp_path):
    original = tmp_path / "levels" / "castle.json"
    path = write_recovery(str(tmp_path / "rec"), level(), str(original), "s1", now=1000.0)
    assert os.path.dirname(path) == str(tmp_path / "rec")
    head = json.loads(open(path, encoding="utf-8").readline())
    assert head["format"] == FORMAT and head["original"] == str(original) and head["saved_at"] == 1000.0
    assert head["pid"] == os.getpid() and head["host"] == socket.gethostname() and head["objects"] == 4
    copy = read_header(path)
    assert copy == RecoveryCopy(path, str(original), 1000.0, os.getpid(), socket.gethostname(), "s1", "Castle", 4,
                                copy.pid_start, copy.touched_at)
    assert load_recovery(copy) == level()
    assert load_recovery(path) == level()
    assert not original.exists()


def test_an_untitled_level_is_kept_too(tmp_path):
    path = write_recovery(str(tmp_path), Level(name="Untitled"), None, "s9")
    copy = read_header(path)
    assert copy.original is None and copy.display_name == "Untitled"
    assert read_header(write_recovery(str(tmp_path), Level(name="Arena"), None, "s8")).display_name == "Untitled (Arena)"
    assert load_recovery(copy) == Level(name="Untitled")


def test_a_copy_is_written_atomically_and_never_over_the_level(tmp_path, monkeypatch):
    folder = str(tmp_path)
    path = write_recovery(folder, level(n=1), None, "s1")
    before = open(path, "rb").read()

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full_disk)
    with pytest.raises(LevelSaveError, match="No space left"):
        write_recovery(folder, level(n=5), None, "s1")
    monkeypatch.undo()
    assert open(path, "rb").read() == before  # the previous copy, whole
    assert sorted(os.listdir(folder)) == [os.path.basename(path)]  # no temporary file left

    # A recovery folder that is the level's own folder still never writes the level's file.
    own = tmp_path / "castle.json"
    save_level(level(), own, hulls={})
    saved = own.read_bytes()
    write_recovery(str(tmp_path), level(n=7), str(own), "s1")
    assert own.read_bytes() == saved


def test_copies_of_a_live_session_are_not_offered(tmp_path):
    write_recovery(str(tmp_path), level(), "/l/a.json", "mine")
    assert [c.original for c in list_copies(str(tmp_path))] == ["/l/a.json"]
    assert dead_copies(str(tmp_path)) == []


def test_copies_of_an_ended_process_are_offered_oldest_first(tmp_path):
    gone = dead_pid()
    assert not pid_alive(gone)
    late = write_recovery(str(tmp_path), level("B"), "/l/b.json", "x", now=2000.0)
    early = write_recovery(str(tmp_path), level("A"), "/l/a.json", "y", now=1000.0)
    write_recovery(str(tmp_path), level("C"), "/l/c.json", "z")  # still alive: this process
    rewrite_header(late, pid=gone)
    rewrite_header(early, pid=gone)
    assert [c.name for c in dead_copies(str(tmp_path))] == ["A", "B"]


def test_a_reused_pid_does_not_keep_a_copy_alive(tmp_path):
    path = write_recovery(str(tmp_path), level(), None, "s")
    copy = read_header(path)
    if copy.pid_start is None:
        pytest.skip("process start times are only read on Linux")
    rewrite_header(path, pid_start=copy.pid_start - 1)  # same pid, another process
    assert is_dead(read_header(path))


def test_a_killed_but_unreaped_process_counts_as_dead(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        path = write_recovery(str(tmp_path), level(), None, "s")
        rewrite_header(path, pid=proc.pid, pid_start=None)
        assert not is_dead(read_header(path))
        proc.kill()
        deadline = time.monotonic() + 5
        while not open(f"/proc/{proc.pid}/stat").read().split(") ")[1].startswith("Z") and time.monotonic() < deadline:
            time.sleep(0.01)
        assert is_dead(read_header(path))  # a zombie until its parent waits for it
    finally:
        proc.kill()
        proc.wait()


def test_another_machines_copy_is_offered_only_once_it_is_stale(tmp_path):
    path = write_recovery(str(tmp_path), level(), None, "s")
    rewrite_header(path, host="some-other-machine", pid=1)
    copy = read_header(path)
    assert not is_dead(copy, now=copy.touched_at + STALE_AFTER - 60)
    assert is_dead(copy, now=copy.touched_at + STALE_AFTER + 60)
    old = time.time() - STALE_AFTER - 60
    os.utime(path, (old, old))
    assert [c.path for c in dead_copies(str(tmp_path))] == [path]
    assert touch(path)  # the live writer touches it at every tick
    assert dead_copies(str(tmp_path)) == []


def test_unreadable_files_are_not_listed_and_a_broken_level_says_so(tmp_path):
    (tmp_path / "junk.recovery.json").write_text("not json\n{}")
    (tmp_path / "other.recovery.json").write_text('{"format": "something else"}\n{}')
    (tmp_path / "notes.txt").write_text("hello")
    assert list_copies(str(tmp_path)) == []
    assert list_copies(str(tmp_path / "missing")) == []
    path = write_recovery(str(tmp_path), level(), None, "s")
    with open(path, "a", encoding="utf-8") as f:
        f.write("trailing garbage")
    with pytest.raises(LevelFileError) as e:
        load_recovery(read_header(path))
    assert "not valid JSON" in str(e.value)


def test_remove_and_stray_temporary_files(tmp_path):
    path = write_recovery(str(tmp_path), level(), None, "s")
    assert remove_copy(path) and not os.path.exists(path)
    assert not remove_copy(path)
    old = tmp_path / ".~untitled.s.recovery.json.abc123.tmp"
    young = tmp_path / ".~untitled.t.recovery.json.def456.tmp"
    users = tmp_path / ".~castle.json.xyz.tmp"  # not ours: a level file's own temporary
    for p in (old, young, users):
        p.write_text("{")
    past = time.time() - 7200
    os.utime(old, (past, past))
    os.utime(users, (past, past))
    assert remove_stray_temp_files(str(tmp_path)) == 1
    assert not old.exists() and young.exists() and users.exists()


def test_pid_alive():
    assert pid_alive(os.getpid())
    assert not pid_alive(dead_pid())
    assert not pid_alive(0) and not pid_alive(-5)


@pytest.mark.parametrize("header", [
    '{"format": "level-editor.recovery", "saved_at": 1, "pid": Infinity}',
    '{"format": "level-editor.recovery", "saved_at": 1, "pid": 5, "objects": 1e400}',
    '{"format": "level-editor.recovery", "saved_at": 1, "pid": 5, "pid_start": -Infinity}',
    '{"format": "level-editor.recovery", "saved_at": NaN, "pid": 5}',
    '{"format": "level-editor.recovery", "saved_at": "yesterday", "pid": 5}',
    '{"format": "level-editor.recovery", "saved_at": 1, "pid": [5]}',
    "[" * 100_000,
    '"just text"',
], ids=["pid-infinite", "objects-infinite", "pid-start-infinite", "saved-at-nan", "saved-at-text", "pid-list",
        "nested-too-deep", "not-an-object"])
def test_a_corrupt_header_is_skipped_and_never_raises(tmp_path, header):
    good = write_recovery(str(tmp_path), level(), None, "good")
    body = open(good, encoding="utf-8").read().split("\n", 1)[1]
    (tmp_path / "bad.s.recovery.json").write_text(header + "\n" + body, encoding="utf-8")
    assert read_header(str(tmp_path / "bad.s.recovery.json")) is None
    assert [c.path for c in list_copies(str(tmp_path))] == [good]
    assert dead_copies(str(tmp_path)) == []  # the good one is this live process's


@pytest.mark.parametrize("pid", [10**20, 2**63, 1e300])
def test_a_pid_no_process_can_have_counts_as_dead(tmp_path, pid):
    path = write_recovery(str(tmp_path), level(), None, "s")
    rewrite_header(path, pid=pid)
    copy = read_header(path)
    assert copy is not None and is_dead(copy)
    assert not pid_alive(int(pid))
    assert [c.path for c in dead_copies(str(tmp_path))] == [path]


def test_text_a_utf8_file_cannot_hold_is_kept_in_a_copy(tmp_path):
    # A level opened from a path that is not UTF-8 (Linux keeps its bytes as surrogates) and a
    # name holding half a surrogate pair (valid JSON): autosave must still write the copy.
    original = os.path.join(os.fsdecode(bytes(tmp_path)), os.fsdecode(b"caf\xe9.json"))
    path = write_recovery(str(tmp_path), level(name="half \ud800"), original, "s")
    copy = read_header(path)
    assert copy.original == original and copy.name == "half \ud800"
    assert load_recovery(copy).name == "half \ud800"
