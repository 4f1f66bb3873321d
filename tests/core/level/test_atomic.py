"""The atomic writer: a save killed mid-write leaves the old file whole and nothing behind; read-only files are
never replaced silently; save errors say why in words the editor can use."""
from __future__ import annotations

import errno
import fcntl
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from level_editor.core.level import atomic
from level_editor.core.level.atomic import (
    LevelSaveError,
    ReadOnlyTargetError,
    remove_stale_temporaries,
    temporary_name_pattern,
    write_text_atomic,
)
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[3]

#: A writer that writes slowly (one small chunk at a time) until killed, and counts its chunks (a dot each).
SLOW_WRITER = """
import os, sys, time
from level_editor.core.level import atomic
if sys.argv[3] == "named":
    atomic.use_named_temporaries()
real_write = os.write
def slow_write(fd, data):
    with open(sys.argv[2], "a") as chunks:
        chunks.write(".")
    time.sleep(0.05)
    return real_write(fd, bytes(data[:100]))
atomic.os.write = slow_write
atomic.write_text_atomic(sys.argv[1], "x" * 1_000_000)
"""


def kill_mid_write(tmp_path, how: str) -> Path:
    target = tmp_path / "level.json"
    target.write_text("the old level")
    chunks = tmp_path / "started"
    writer = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(target), str(chunks), how], cwd=ROOT)
    try:
        # mid-write: a few chunks of the new text written, most of it still to come
        until(lambda: writer.poll() is not None or (chunks.exists() and len(chunks.read_text()) >= 3),
              "the writer wrote three chunks")
        assert writer.poll() is None, "the writer ended before it was killed"
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
    chunks.unlink()
    assert target.read_text() == "the old level"
    return target


def test_a_save_killed_mid_write_leaves_the_old_file_and_nothing_that_outlives_the_next_start(tmp_path):
    target = kill_mid_write(tmp_path, "default")
    remove_stale_temporaries(target)  # what the editor does when it starts or opens the level
    assert os.listdir(tmp_path) == ["level.json"]


def test_a_named_temporary_left_by_a_kill_is_removed_at_the_next_start(tmp_path):
    target = kill_mid_write(tmp_path, "named")
    left = [n for n in os.listdir(tmp_path) if n != "level.json"]
    assert len(left) == 1 and temporary_name_pattern("level.json").fullmatch(left[0])
    assert remove_stale_temporaries(tmp_path) == [str(tmp_path / left[0])]
    assert os.listdir(tmp_path) == ["level.json"] and target.read_text() == "the old level"


def test_the_sweep_leaves_others_files_and_a_save_in_progress_alone(tmp_path):
    keep = [".~notes.txt.tmp", "level.json", ".~level.json.tmp", "~level.json.abcdefgh.tmp", ".~x.ABCDEFGH.tmp"]
    for name in keep:
        (tmp_path / name).write_text("mine")
    os.mkdir(tmp_path / ".~dir.abcdefgh.tmp")
    busy = tmp_path / ".~level.json.abcdefgh.tmp"
    busy.write_text("being written")
    fd = os.open(busy, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a save holds its temporary (core/level/atomic.py)
        assert remove_stale_temporaries(tmp_path) == []
    finally:
        os.close(fd)
    assert remove_stale_temporaries(tmp_path / "other.json") == []
    assert remove_stale_temporaries(tmp_path / "level.json") == [str(busy)]
    assert sorted(os.listdir(tmp_path)) == sorted(keep + [".~dir.abcdefgh.tmp"])


def test_a_read_only_file_is_not_replaced_silently(tmp_path):
    target = tmp_path / "level.json"
    target.write_text("old")
    target.chmod(0o444)
    with pytest.raises(ReadOnlyTargetError) as e:
        write_text_atomic(target, "new")
    assert (e.value.reason, e.value.errno) == ("read-only", errno.EACCES)
    assert str(e.value) == f"could not save {target}: the file is read-only"
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["level.json"]
    write_text_atomic(target, "new", replace_read_only=True)  # after the editor asked
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o444


def test_a_file_keeps_its_mode_and_a_new_one_gets_0644(tmp_path):
    target = tmp_path / "level.json"
    target.write_text("old")
    target.chmod(0o600)
    write_text_atomic(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    fresh = tmp_path / "fresh.json"
    write_text_atomic(fresh, "x")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_root_keeps_the_owner_of_a_file_it_replaces(tmp_path):
    target = tmp_path / "level.json"
    target.write_text("old")
    os.chown(target, 12345, 12345)
    write_text_atomic(target, "new")
    assert (target.stat().st_uid, target.stat().st_gid) == (12345, 12345)


def test_the_folder_is_synced_after_the_swap(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync

    def fsync(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_text_atomic(tmp_path / "level.json", "x")
    assert synced == [False, True]  # the file, then its folder


@pytest.mark.parametrize("code, reason", [(errno.EACCES, "permission"), (errno.ENOSPC, "no-space"),
                                          (errno.EROFS, "read-only"), (errno.EIO, "other")])
def test_save_errors_carry_a_reason_and_the_errno(tmp_path, monkeypatch, code, reason):
    def fail(*a, **k):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(atomic, "_open_temporary", fail)
    with pytest.raises(LevelSaveError) as e:
        write_text_atomic(tmp_path / "level.json", "x")
    assert (e.value.reason, e.value.errno) == (reason, code)
    assert str(e.value) == f"could not save {tmp_path / 'level.json'}: {os.strerror(code)}"
