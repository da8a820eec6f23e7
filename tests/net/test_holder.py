"""The note of which process holds a journal: written with the lock, read back, dropped."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path

from sorry_lan.net.holder import Holder, drop_holder, holder_path, note_holder, read_holder
from sorry_lan.net.journal import Journal


def test_an_open_journal_notes_this_process_and_closing_drops_the_note(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    journal = Journal(path)
    assert read_holder(path) == Holder(os.getpid(), platform.node())
    assert oct(holder_path(path).stat().st_mode & 0o777) == "0o600"
    journal.close()
    assert read_holder(path) is None and not holder_path(path).exists()
    journal.close()  # twice is safe


def test_a_note_left_by_another_process_is_not_dropped(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    holder_path(path).write_text(json.dumps({"pid": 1, "machine": "den"}))
    drop_holder(path)
    assert read_holder(path) == Holder(1, "den")


def test_notes_that_are_not_ours_read_as_unknown(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    note = holder_path(path)
    bad_notes = ("", "[]", '{"pid": "1", "machine": "x"}', '{"pid": true, "machine": "x"}',
                 '{"pid": 0, "machine": "x"}', '{"pid": 5}', '{"pid": 5, "machine": 7}')
    for bad in bad_notes:
        note.write_text(bad)
        assert read_holder(path) is None, bad
    note.write_text(json.dumps({"pid": 5, "machine": "a\x1b[2Jb"}))
    assert read_holder(path) == Holder(5, "a[2Jb")  # nothing a terminal would obey


def test_a_note_that_cannot_be_written_leaves_the_holder_unknown(tmp_path: Path) -> None:
    note_holder(tmp_path / "missing" / "g.journal")  # no such directory: no error
    assert read_holder(tmp_path / "missing" / "g.journal") is None
