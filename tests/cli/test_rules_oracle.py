"""``sorry-lan rules moves``: the JSON position format, the answers, every error case.

Answers are checked against results worked out by hand from RULES.md; the command is
run both in-process (``sorry_lan.cli.main``) and as a real ``python -m sorry_lan``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sorry_lan.bots import make_bot, position_of
from sorry_lan.cli import main
from sorry_lan.rules import Game, Variant
from sorry_lan.rules.notation import (
    Position,
    PositionError,
    decode,
    layout_json,
    legal_moves,
    legal_moves_answer,
    parse_position,
    to_mapping,
)

REPO = Path(__file__).resolve().parents[2]
START4 = ["start"] * 4


def position(**changes: Any) -> dict[str, Any]:
    """The issue's example position, with ``changes`` applied (``None`` deletes a key)."""
    data: dict[str, Any] = {
        "variant": "standard",
        "players": ["red", "yellow"],
        "pawns": {"red": ["start", 12, "S3", "home"], "yellow": ["start", "start", "start", 40]},
        "turn": "red",
        "card": "7",
    }
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


def team(pawns: dict[str, list[Any]], turn: str, card: str, **extra: Any) -> dict[str, Any]:
    full = {c: pawns.get(c, START4) for c in ("red", "blue", "yellow", "green")}
    return {"variant": "team", "players": list(full), "pawns": full, "turn": turn,
            "card": card, **extra}


def ask(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str,
    *flags: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["rules", "moves", *flags])
    out, err = capsys.readouterr()
    return status, out, err


def answer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data: object
) -> dict[str, Any]:
    status, out, err = ask(monkeypatch, capsys, json.dumps(data))
    assert (status, err) == (0, ""), err
    assert out.endswith("\n") and out.count("\n") == 1
    result: dict[str, Any] = json.loads(out)
    return result


def results(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [entry["result"] for entry in reply["moves"]]


# -- answers ---------------------------------------------------------------------


def test_the_example_seven(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    reply = answer(monkeypatch, capsys, position())
    yellow = ["start", "start", "start", 40]
    # R2 12->19 whole; or split with R3 in its safety zone (S3 +1 = S4, +2 = S5, +3 = home);
    # R2 12+4 lands on blue's triangle (16) and slides to 19.  R3 cannot move 7.
    expected = [
        {"red": ["start", 19, "S3", "home"], "yellow": yellow},
        {"red": ["start", 18, "S4", "home"], "yellow": yellow},
        {"red": ["start", 17, "S5", "home"], "yellow": yellow},
        {"red": ["start", 19, "home", "home"], "yellow": yellow},
    ]
    got = results(reply)
    assert sorted(map(json.dumps, got)) == sorted(map(json.dumps, expected))
    notes = {e["move"] for e in reply["moves"]}
    assert "R2 12->19" in notes
    assert any("slides to 19" in n and "R3 S3->home" in n for n in notes)
    assert list(reply) == ["moves"]
    assert all(list(e) == ["move", "result"] for e in reply["moves"])


def test_eleven_with_no_forward_move_offers_the_decline(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # R1 at 58 would overshoot HOME with 11 (58 -> 2 is 4 steps, S1..S5 and HOME 6 more).
    pawns = {"red": [58, "start", "start", "start"], "yellow": [40, "start", "start", "start"]}
    reply = answer(monkeypatch, capsys, position(card="11", pawns=pawns))
    assert results(reply) == [
        {"red": [40, "start", "start", "start"], "yellow": [58, "start", "start", "start"]},
        pawns,
    ]
    assert reply["moves"][0]["move"] == "R1 58 <-> Y1 40"
    assert "decline" in reply["moves"][1]["move"]


def test_eleven_with_a_forward_move_has_no_decline(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    pawns = {"red": [10, "start", "start", "start"], "yellow": [40, "start", "start", "start"]}
    reply = answer(monkeypatch, capsys, position(card="11", pawns=pawns))
    assert sorted(map(json.dumps, results(reply))) == sorted(map(json.dumps, [
        {"red": [21, "start", "start", "start"], "yellow": [40, "start", "start", "start"]},
        {"red": [40, "start", "start", "start"], "yellow": [10, "start", "start", "start"]},
    ]))


def test_play_for_points_offers_no_decline_for_one_card(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # In play for points the alternative to a swap is discarding, a choice of the hand.
    pawns = {"red": [58, "home", "home", "home"], "yellow": [40, "start", "start", "start"]}
    reply = answer(monkeypatch, capsys, position(variant="points", card="11", pawns=pawns))
    assert results(reply) == [
        {"red": [40, "home", "home", "home"], "yellow": [58, "start", "start", "start"]}
    ]


def test_no_legal_move(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    pawns = {"red": START4, "yellow": [40, "start", "start", "start"]}
    assert answer(monkeypatch, capsys, position(card="3", pawns=pawns)) == {"moves": []}


def test_sorry_slides_and_bumps(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    # Y1 on blue's triangle (16): red's Sorry! lands there, slides to 19, bumping Y2 (18).
    pawns = {"red": ["home", "start", "start", 30], "yellow": [16, 18, "start", "home"]}
    reply = answer(monkeypatch, capsys, position(card="sorry", pawns=pawns))
    by_result = {json.dumps(e["result"]): e["move"] for e in reply["moves"]}
    slid = {"red": ["home", 19, "start", 30], "yellow": ["start", "start", "start", "home"]}
    plain = {"red": ["home", 18, "start", 30], "yellow": [16, "start", "start", "home"]}
    assert set(by_result) == {json.dumps(slid), json.dumps(plain)}
    assert by_result[json.dumps(slid)].startswith("Sorry! R2 start->16")


def test_ten_forward_or_back_one_and_four_back(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    pawns = {"red": [4, "home", "home", "home"], "yellow": START4}
    assert [r["red"][0] for r in results(answer(monkeypatch, capsys,
            position(card="10", pawns=pawns)))] == [14, 3]
    assert results(answer(monkeypatch, capsys, position(card="4", pawns=pawns))) == [
        {"red": [0, "home", "home", "home"], "yellow": START4}
    ]
    # From S2, back 4: S1, 2, 1, 0.
    pawns = {"red": ["S2", "home", "home", "home"], "yellow": START4}
    assert results(answer(monkeypatch, capsys, position(card="4", pawns=pawns)))[0]["red"][0] == 0


def test_pawn_order_is_kept_and_every_seated_colour_is_listed(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    data = {
        "variant": "standard",
        "players": ["green", "red", "blue"],
        "pawns": {"red": ["home", 20, "start", "S1"], "blue": START4,
                  "green": [1, "start", "S5", "home"]},
        "turn": "red",
        "card": "1",
    }
    reply = answer(monkeypatch, capsys, data)
    got = results(reply)
    assert all(list(r) == ["green", "red", "blue"] for r in got)
    assert sorted(json.dumps(r["red"]) for r in got) == sorted(json.dumps(r) for r in [
        ["home", 21, "start", "S1"],
        ["home", 20, 4, "S1"],
        ["home", 20, "start", "S2"],
    ])
    assert all(r["green"] == [1, "start", "S5", "home"] and r["blue"] == START4 for r in got)


def test_team_player_with_all_home_moves_the_partner(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    data = team({"red": ["home"] * 4, "yellow": [34, "start", "start", "start"]}, "red", "5")
    got = results(answer(monkeypatch, capsys, data))
    assert [r["yellow"] for r in got] == [[39, "start", "start", "start"]]


def test_team_after_two_moves_either_partner(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    pawns = {"red": [10, "start", "start", "start"], "yellow": [36, "start", "start", "start"]}

    def pairs(reply: dict[str, Any]) -> list[str]:
        return sorted(json.dumps([*r["red"][:2], *r["yellow"][:2]]) for r in results(reply))

    assert pairs(answer(monkeypatch, capsys, team(pawns, "red", "5"))) == [
        json.dumps([15, "start", 36, "start"])
    ]
    either = answer(monkeypatch, capsys, team(pawns, "red", "5", after_two=True))
    assert pairs(either) == sorted(
        json.dumps(x) for x in ([15, "start", 36, "start"], [10, "start", 41, "start"])
    )
    # A 1 may bring out either partner's pawn, but moves only the player's own.
    assert pairs(answer(monkeypatch, capsys, team(pawns, "red", "1"))) == sorted(
        json.dumps(x) for x in (
            [11, "start", 36, "start"], [10, 4, 36, "start"], [10, "start", 36, 34]
        )
    )


def test_jsonl_answers_line_by_line(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    lines = [
        json.dumps(position()),
        json.dumps(position(card="3", pawns={"red": START4, "yellow": START4})),
        json.dumps(position(card="5")),
    ]
    status, out, err = ask(monkeypatch, capsys, "\n".join(lines) + "\n", "--jsonl")
    assert (status, err) == (0, "")
    replies = [json.loads(line) for line in out.splitlines()]
    assert len(replies) == 3
    assert len(replies[0]["moves"]) == 4
    assert replies[1] == {"moves": []}
    assert results(replies[2]) == [
        {"red": ["start", 17, "S3", "home"], "yellow": ["start", "start", "start", 40]}
    ]


def test_jsonl_answers_a_bad_line_with_an_error_and_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    text = "\n".join([json.dumps(position()), "{not json", "",
                      json.dumps(position(card="6")), json.dumps(position(card="5"))])
    status, out, err = ask(monkeypatch, capsys, text, "--jsonl")
    assert status == 2
    replies = [json.loads(line) for line in out.splitlines()]
    assert len(replies) == 5
    assert "moves" in replies[0] and "moves" in replies[4]
    assert [set(r) for r in replies[1:4]] == [{"error"}] * 3
    assert "unknown card '6'" in replies[3]["error"]
    assert [line.split(":")[1].strip() for line in err.splitlines()] == [
        "line 2", "line 3", "line 4"
    ]


# -- invalid positions -----------------------------------------------------------

INVALID: list[tuple[str, Any, str]] = [
    ("not json", "{\"variant\": ", "invalid JSON"),
    ("empty input", "", "invalid JSON"),
    ("not an object", [1, 2], "must be a JSON object"),
    ("unknown key", position(extra=1), "unknown key 'extra'"),
    ("missing key", position(turn=None), "missing key 'turn'"),
    ("repeated key", '{"variant": "standard", "variant": "team"}', "appears twice"),
    ("unknown variant", position(variant="speed"), "unknown variant 'speed'"),
    ("variant not text", position(variant=3), "variant must be a string"),
    ("unknown colour", position(players=["red", "purple"]), "unknown colour 'purple'"),
    ("colour case", position(players=["Red", "yellow"]), "unknown colour 'Red'"),
    ("colour twice", position(players=["red", "red"]), "listed twice"),
    ("one player", position(players=["red"]), "2 to 4 players"),
    ("players not a list", position(players="red"), "players must be a list"),
    ("team of two", position(variant="team"), "team play needs all four colours"),
    ("pawns not an object", position(pawns=[1]), "pawns must be an object"),
    ("pawns of unknown colour",
     position(pawns={"red": START4, "yellow": START4, "pink": START4}), "unknown colour 'pink'"),
    ("colour not seated",
     position(pawns={"red": START4, "yellow": START4, "blue": START4}),
     "blue, which is not seated"),
    ("seated colour without pawns", position(pawns={"red": START4}), "no pawns given for"),
    ("three pawns", position(pawns={"red": START4[:3], "yellow": START4}), "exactly 4 pawns"),
    ("five pawns", position(pawns={"red": [*START4, 5], "yellow": START4}), "exactly 4 pawns"),
    ("pawns not a list", position(pawns={"red": "start", "yellow": START4}), "exactly 4 pawns"),
    ("square 60", position(pawns={"red": [60, 1, 2, 3], "yellow": START4}), "not in 0..59"),
    ("negative square", position(pawns={"red": [-1, 1, 2, 3], "yellow": START4}), "not in 0..59"),
    ("S6", position(pawns={"red": ["S6", 1, 2, 3], "yellow": START4}), 'bad location'),
    ("lower-case s1", position(pawns={"red": ["s1", 1, 2, 3], "yellow": START4}), "bad location"),
    ("square as text", position(pawns={"red": ["12", 1, 2, 3], "yellow": START4}), "bad location"),
    ("boolean square", position(pawns={"red": [True, 1, 2, 3], "yellow": START4}), "bad location"),
    ("float square", position(pawns={"red": [1.5, 1, 2, 3], "yellow": START4}), "bad location"),
    ("null square", position(pawns={"red": [None, 1, 2, 3], "yellow": START4}), "bad location"),
    ("one colour on one track square",
     position(pawns={"red": [7, 7, 2, 3], "yellow": START4}), "two red pawns on track square 7"),
    ("one colour on one safety square",
     position(pawns={"red": ["S2", "S2", 2, 3], "yellow": START4}),
     "two red pawns on safety square S2"),
    ("two colours on one track square",
     position(pawns={"red": [7, 1, 2, 3], "yellow": [7, "start", "start", "start"]}),
     "two pawns on track square 7 (red and yellow)"),
    ("unknown turn colour", position(turn="mauve"), "unknown colour 'mauve' in turn"),
    ("turn colour not seated", position(turn="green"), "turn colour green is not seated"),
    ("unknown card", position(card="9"), "unknown card '9'"),
    ("card as a number", position(card=7), "card must be a string"),
    ("after_two not a bool", position(after_two="yes"), "after_two must be true or false"),
]


@pytest.mark.parametrize(("data", "reason"), [(d, r) for _, d, r in INVALID],
                         ids=[name for name, _, _ in INVALID])
def test_invalid_positions_exit_2_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, data: Any, reason: str
) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    status, out, err = ask(monkeypatch, capsys, text)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith("sorry-lan rules moves: invalid position: ")
    assert reason in err


def test_same_square_in_different_safety_zones_is_fine() -> None:
    parsed = parse_position(position(pawns={"red": ["S1", 1, 2, 3], "yellow": ["S1", 4, 5, 6]}))
    assert parsed.pawns[0] == parsed.pawns[8]


def test_an_absent_colour_keeps_its_pawns_in_start() -> None:
    parsed = parse_position(position())
    assert parsed.seated == (0, 2)
    assert layout_json(parsed.pawns, (1, 3)) == {"blue": START4, "green": START4}


# -- consistency with the engine ---------------------------------------------------


def _sampled_positions() -> list[Position]:
    out = []
    for variant, seated in ((Variant.STANDARD, (0, 1, 2)), (Variant.TEAM, (0, 1, 2, 3)),
                            (Variant.POINTS, (1, 3))):
        game = Game(variant, seated, seed=11)
        bot = make_bot("random", 3)
        game.start()
        while not game.over:
            if game.card is not None:
                out.append(Position(variant, game.seated, game.pawns, game.turn, game.card,
                                    game.after_two))
            game.play(bot.choose(position_of(game), game.legal_moves()))
    return out


def test_round_trip_and_answers_match_the_engine() -> None:
    positions = _sampled_positions()
    assert len(positions) > 100
    for pos in positions:
        again = parse_position(decode(json.dumps(to_mapping(pos))))
        assert again == pos
        reply = legal_moves_answer(pos)
        got = [_layout(parse_position({**to_mapping(pos), "pawns": e["result"]}).pawns)
               for e in reply["moves"]]
        assert len(set(got)) == len(got)
        # Every answer is a legal move's result, and every legal result is answered.
        assert set(got) == {_layout(m.result(pos.pawns)) for m in legal_moves(pos)}


def _layout(pawns: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """A layout with the pawns of each colour interchangeable."""
    return tuple(tuple(sorted(pawns[c * 4 : c * 4 + 4])) for c in range(4))


def test_a_swap_between_partners_is_listed_once(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # Team play after a 2: blue may move blue and green pawns, so B2<->G1 and G1<->B2
    # are the same move; it must appear once.
    data = team({"red": [57, "home", 35, 13], "blue": ["home", 53, "S5", "start"],
                 "yellow": ["S2", 28, "start", "start"], "green": [49, "start", "start", "start"]},
                "blue", "11", after_two=True)
    reply = answer(monkeypatch, capsys, data)
    got = [json.dumps(e["result"]) for e in reply["moves"]]
    assert len(got) == len(set(got)) == 11


def test_parse_errors_are_typed() -> None:
    with pytest.raises(PositionError):
        parse_position({"variant": "standard"})
    with pytest.raises(PositionError):
        decode("[")


# -- the real console entry ---------------------------------------------------------


def _run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sorry_lan", "rules", "moves", *args], input=stdin,
        capture_output=True, text=True, cwd=REPO, timeout=30, check=False,
    )


def test_console_entry_answers() -> None:
    done = _run(stdin=json.dumps(position()))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert len(json.loads(done.stdout)["moves"]) == 4


def test_console_entry_rejects_an_invalid_position() -> None:
    done = _run(stdin=json.dumps(position(variant="team")))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "sorry-lan rules moves: invalid position: team play needs all four colours seated"
    ]


def test_console_entry_jsonl() -> None:
    lines = [json.dumps(position()), json.dumps(position(turn="blue")),
             json.dumps(position(card="8"))]
    done = _run("--jsonl", stdin="\n".join(lines) + "\n")
    assert done.returncode == 2
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [next(iter(r)) for r in replies] == ["moves", "error", "moves"]
    assert results(replies[2]) == [
        {"red": ["start", 20, "S3", "home"], "yellow": ["start", "start", "start", 40]}
    ]


def test_help_documents_the_jsonl_error_policy() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sorry_lan", "rules", "moves", "--help"],
        capture_output=True, text=True, cwd=REPO, timeout=30, check=False,
    )
    assert done.returncode == 0
    assert '{"error": "<reason>"}' in done.stdout
    assert "exit status 2" in done.stdout
