"""``sorry-lan games --export ID`` writes a saved game's record (JSON or text, to a
file or the terminal) and ``sorry-lan replay FILE [--check]`` reads one: a turn a
line, a refusal naming the edited turn, one sentence for a file that is no record."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from test_saved import save_game

from sorry_lan.cli import main
from sorry_lan.codes import RecordFailure
from sorry_lan.i18n import use_language
from sorry_lan.i18n.coded import say
from sorry_lan.net.journal import Journal
from sorry_lan.records import MAX_BYTES


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    journals = tmp_path / "journals"
    journals.mkdir(mode=0o700)
    save_game(journals, "20260101-a", to_the_end=True, end=True)
    return tmp_path


def export(data_dir: Path, *more: str) -> int:
    return main(["games", "--data-dir", str(data_dir), "--export", "20260101", *more])


def test_an_exported_record_replays_and_checks(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = data_dir / "game.json"
    assert export(data_dir, "-o", str(out)) == 0
    record = json.loads(out.read_text())
    assert record["format"] == "sorry-lan game record" and record["result"]["winner"]
    assert record["table"] == "ann's" and record["ended"] is not None
    capsys.readouterr()
    assert main(["replay", str(out), "--check"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "ann's: standard, seed 3" and lines[1] == "ann (Red) and bob (Yellow)"
    assert len(lines) == 3 + len(record["turns"]) + 2
    assert lines[3].startswith("1. ") and lines[-2] in ("ann won", "bob won")
    assert lines[-1] == "the record replays through the rules to the same board and result"


def test_the_text_form_is_one_turn_a_line(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert export(data_dir, "--format", "text") == 0
    lines = capsys.readouterr().out.splitlines()
    numbered = [line for line in lines if line[:1].isdigit()]
    assert numbered[0].startswith("1. ") and "turn lost" in "\n".join(numbered)
    assert numbered[-1].startswith(f"{len(numbered)}. ")


def test_export_picks_a_game_and_keeps_chat_when_asked(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = Journal(data_dir / "journals" / "20260101-a.journal")
    journal.append({"k": "chat", "colour": 0, "text": "again?"})
    journal.close()
    assert export(data_dir, "--chat") == 0
    record = json.loads(capsys.readouterr().out)
    assert record["turns"][-1]["text"] == "again?"
    assert export(data_dir, "--game", "2") == 1
    assert capsys.readouterr().err == "sorry-lan games: 20260101-a holds no game number 2\n"
    assert main(["games", "--data-dir", str(data_dir), "--export", "nope"]) == 1
    assert "no saved game has the id 'nope'" in capsys.readouterr().err


def test_an_edited_record_is_refused_at_its_turn_in_the_players_language(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = data_dir / "game.json"
    assert export(data_dir, "-o", str(out)) == 0
    record = json.loads(out.read_text())
    move = next(t for t in record["turns"] if t["type"] == "move")
    move["who"] = "red" if move["who"] == "yellow" else "yellow"
    out.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["replay", str(out), "--check"]) == 1
    n = move["n"]
    assert capsys.readouterr().err == (
        f"sorry-lan replay: turn {n}: {move['who']} played, but it was "
        f"{'yellow' if move['who'] == 'red' else 'red'}'s turn\n"
    )
    assert main(["replay", "--lang", "el", str(out), "--check"]) == 1
    assert f"σειρά {n}:" in capsys.readouterr().err


@pytest.mark.parametrize(
    "data",
    [
        b'{"format": "sorry-lan game record", "turns": [',
        b"\x00" * 64,
        b"[]",
        b" " * (MAX_BYTES + 10),
    ],
    ids=["truncated", "binary", "not-a-record", "huge"],
)
def test_a_file_that_is_no_record_gets_one_sentence(
    tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(data)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"sorry-lan replay: {path}") and err.count("\n") == 1


def test_an_unchecked_record_with_odd_turns_is_one_sentence_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "odd.json"
    odd = {"format": "sorry-lan game record", "version": 1, "seats": [{"colour": 7}],
           "turns": [{"n": 1, "type": "move", "card": "nine"}]}  # fmt: skip
    path.write_text(json.dumps(odd))
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["replay", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_moves_are_worded_in_the_players_language(capsys: pytest.CaptureFixture[str]) -> None:
    golden = Path(__file__).resolve().parents[2] / "protocol" / "records" / "team-4.json"
    assert main(["replay", str(golden)]) == 0
    english = capsys.readouterr().out
    assert "start->" in english and ", bumps " in english and " <-> " in english
    assert main(["replay", "--lang", "el", str(golden)]) == 0
    greek = capsys.readouterr().out
    assert "start->" not in greek and ", bumps " not in greek and " <-> " in greek
    assert len(greek.splitlines()) == len(english.splitlines())


def test_a_saved_game_replays_by_its_id_or_as_the_newest(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "20260101", "--data-dir", str(data_dir)]) == 0  # piped: a turn a line
    by_id = capsys.readouterr().out
    assert by_id.startswith("ann's: standard, seed 3\n")
    assert main(["replay", "--check", "--data-dir", str(data_dir)]) == 0  # the newest
    newest = capsys.readouterr().out.splitlines()
    assert newest[:-1] == by_id.splitlines()
    assert main(["replay", "20260101", "--game", "2", "--data-dir", str(data_dir)]) == 1
    assert capsys.readouterr().err == "sorry-lan replay: 20260101-a holds no game number 2\n"
    assert main(["replay", "nope", "--data-dir", str(data_dir)]) == 1
    assert "no saved game has the id 'nope'" in capsys.readouterr().err
    empty = data_dir / "empty"
    assert main(["replay", "--data-dir", str(empty)]) == 1
    assert capsys.readouterr().err == f"sorry-lan replay: no saved games in {empty / 'journals'}\n"


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_on_a_terminal_it_opens_the_board_and_q_quits(data_dir: Path) -> None:
    from terminal import Terminal

    term = Terminal("replay", "20260101", "--data-dir", str(data_dir))
    try:
        term.wait_for("Replay: the start")
        term.type("q")
        assert term.proc.wait(10) == 0
    finally:
        term.close()


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_on_a_terminal_a_refused_record_is_one_sentence_before_any_board(
    data_dir: Path, tmp_path: Path
) -> None:
    from terminal import Terminal

    out = tmp_path / "game.json"
    assert export(data_dir, "-o", str(out)) == 0
    record = json.loads(out.read_text())
    move = next(t for t in record["turns"] if t["type"] == "move")
    move["card"] = "sorry" if move["card"] != "sorry" else "1"
    out.write_text(json.dumps(record))
    term = Terminal("replay", str(out))
    try:
        seen = term.wait_for(f"turn {move['n']}: the card is")
        assert term.proc.wait(10) == 1 and "Replay" not in seen
    finally:
        term.close()


GOLDEN = Path(__file__).resolve().parents[2] / "protocol" / "records" / "team-4.json"


def test_a_record_without_a_seed_cannot_be_checked_in_the_players_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(GOLDEN.read_bytes())
    record["seed"] = None
    del record["deck"]
    path = tmp_path / "taken.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--check"]) == 1
    assert capsys.readouterr().err == (
        f"sorry-lan replay: {path} cannot be checked: it has no seed (the game so far, or "
        "a game another host took over)\n"
    )
    assert main(["replay", "--lang", "el", str(path), "--check"]) == 1
    with use_language("el"):
        greek = say(RecordFailure.NO_SEED(path=path))
    assert capsys.readouterr().err == f"sorry-lan replay: {greek}\n"
    assert not greek.endswith("took over)")
    assert main(["replay", str(path)]) == 0  # shown, a turn a line, unchecked


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ({"first": "red"}, "the record's first field does not match the game replayed"),
        ({"comment": "hi"}, "is not a valid game record: comment is not in format version 3"),
        ({"ended": "2026-09-21T14:00:00Z"}, "is not a valid game record: it ended before it "
                                            "started"),
        ({"teams": []}, "is not a valid game record: teams is missing or wrong"),
    ],
    ids=["first", "undocumented", "ended", "teams"],
)
def test_a_false_header_is_refused_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: dict[str, object], said: str
) -> None:
    path = tmp_path / "false.json"
    path.write_text(json.dumps(json.loads(GOLDEN.read_bytes()) | edit))
    assert main(["replay", str(path), "--check"]) == 1
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


def test_a_godlike_bot_is_named_by_its_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(GOLDEN.read_bytes())
    record["seats"][3]["strength"] = "godlike"
    path = tmp_path / "godlike.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--check"]) == 1
    assert capsys.readouterr().err == (
        f"sorry-lan replay: {path} is not a valid game record: seats[4].strength is missing "
        "or wrong\n"
    )


def test_the_text_form_bad_utf8_and_deep_nesting_each_get_their_own_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(GOLDEN)]) == 0
    text = tmp_path / "game.txt"
    text.write_text(capsys.readouterr().out)
    latin = tmp_path / "latin.json"
    latin.write_bytes(GOLDEN.read_bytes().replace(b"Ann", "Ånn".encode("latin-1")))
    deep = tmp_path / "deep.json"
    deep.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    said = {}
    for path in (text, latin, deep):
        assert main(["replay", str(path), "--check"]) == 1
        said[path.name] = capsys.readouterr().err
    assert said == {
        "game.txt": f"sorry-lan replay: {text} is the text form of a game record, which cannot "
                    "be read back: export the record as JSON\n",
        "latin.json": f"sorry-lan replay: {latin} is not a game record: it is not UTF-8 text\n",
        "deep.json": f"sorry-lan replay: {deep} is not a game record: its JSON is nested too "
                     "deeply\n",
    }  # fmt: skip
