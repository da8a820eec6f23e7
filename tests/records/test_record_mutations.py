"""Every field RECORD.md constrains, edited in each golden record, is refused by the
checker with the failure that names it: a table of mutations (each one the checker
once said "ok" to, or worded as something else), applied to every golden record it
fits, and a table of mutations of a record's bytes that ``load`` names."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sorry_lan.codes import RecordFailure
from sorry_lan.i18n import use_language
from sorry_lan.i18n.recordwords import record_lines
from sorry_lan.records import RecordError, check, dump, load

ROOT = Path(__file__).resolve().parents[2]
#: The golden records a checker can replay (a game that moved hosts has no seed: its
#: refusal is "cannot be checked", tested below and with the records of a takeover).
GOLDEN = {
    p.stem: record for p in sorted((ROOT / "protocol/records").glob("*.json"))
    if (record := load(p.read_bytes()))["seed"] is not None
}
#: The header fields format version 3 added (a record made older loses them).
SINCE_3 = ("tid", "game", "hosts")


def _older(record: Record, version: int) -> None:
    record["version"] = version
    for key in SINCE_3 if version < 3 else ():
        record.pop(key, None)

Record = dict[str, Any]
#: A mutation edits a record in place; False: it does not fit this record.
Mutate = Callable[[Record], bool | None]


def turn(record: Record, kind: str, **having: object) -> Record:
    return next(
        t for t in record["turns"]
        if t["type"] == kind and all(t.get(k) == v for k, v in having.items())
    )  # fmt: skip


def seat(record: Record, player: str) -> Record:
    return next(s for s in record["seats"] if s["player"] == player)


def other_seated(record: Record, colour: str) -> str:
    return str(next(s["colour"] for s in record["seats"] if s["colour"] != colour))


def _set(where: Callable[[Record], Any], key: str | int, value: object) -> Mutate:
    def mutate(record: Record) -> None:
        where(record)[key] = value

    return mutate


def _first_to_another(record: Record) -> None:
    record["first"] = other_seated(record, record["first"])


def _teams(record: Record) -> None:
    record["teams"] = [] if record["teams"] else [["red", "yellow"]]


def _swapped_teams(record: Record) -> bool:
    record["teams"] = record["teams"][::-1]
    return bool(record["teams"])


def _seats_backwards(record: Record) -> None:
    record["seats"].reverse()


def _float_square(record: Record) -> None:
    move = next(t for t in record["turns"] if t["type"] == "move" and t["parts"]
                and isinstance(t["parts"][0]["to"], int))  # fmt: skip
    move["parts"][0]["to"] = float(move["parts"][0]["to"])


def _bool_square(record: Record) -> bool:
    for move in (t for t in record["turns"] if t["type"] == "move"):
        for part in move["parts"]:
            for key in ("from", "to", "end"):
                if part[key] == 1:
                    part[key] = True
                    return True
    return False


def _float_board(record: Record) -> bool:
    for places in record["board"].values():
        for i, place in enumerate(places):
            if isinstance(place, int):
                places[i] = float(place)
                return True
    return False


def _float_points(record: Record) -> None:
    points = record["result"]["points"]
    colour = next(iter(points))
    points[colour] = float(points[colour])


def _version_1_with_cover(record: Record) -> None:
    _older(record, 1)


def _version_1_strength(record: Record) -> None:
    """A version 1 record (no cover, no back) whose bot's strength is not its name's."""
    turns = [t for t in record["turns"] if t["type"] not in ("cover", "back")]
    record["turns"] = [t | {"n": n} for n, t in enumerate(turns, 1)]
    _older(record, 1)
    seat(record, "bot")["strength"] = "expert"  # its name says greedy


def _cover_in_version_1_only(record: Record) -> None:
    """Version 1 in every other way: only the cover betrays it."""
    turns = [t for t in record["turns"] if t["type"] != "back"]
    record["turns"] = [t | {"n": n} for n, t in enumerate(turns, 1)]
    _older(record, 1)


def _true_turn_number(record: Record) -> None:
    record["turns"][0]["n"] = True


def _float_turn_number(record: Record) -> None:
    record["turns"][4]["n"] = 5.0


def _float_reshuffle(record: Record) -> None:
    reshuffle = turn(record, "reshuffle")
    reshuffle["cards"] = float(reshuffle["cards"])


MALFORMED, UNKNOWN = RecordFailure.MALFORMED, RecordFailure.UNKNOWN_FIELD

#: Each mutation: its name, the edit, the failure and the field it names (None: the
#: failure has no field, or names a part).
MUTATIONS: list[tuple[str, Mutate, RecordFailure, str | None]] = [
    ("first is another seated colour", _first_to_another, RecordFailure.RESULT, "first"),
    ("wrong teams", _teams, MALFORMED, "teams"),
    ("teams in the wrong order", _swapped_teams, MALFORMED, "teams"),
    ("a bot's strength is godlike",
     lambda r: seat(r, "bot").update(strength="godlike"), MALFORMED, None),
    ("a player kind that is none",
     lambda r: seat(r, "person").update(player="robot"), MALFORMED, None),
    ("a person with a strength",
     lambda r: seat(r, "person").update(strength="expert"), MALFORMED, None),
    ("a seat's name is a number", lambda r: seat(r, "person").update(name=7), MALFORMED, None),
    ("a seat with an undocumented field",
     lambda r: seat(r, "person").update(age=9), UNKNOWN, None),
    ("seats not in colour order", _seats_backwards, MALFORMED, "seats[2].colour"),
    ("a colour in capitals", lambda r: r["seats"][0].update(colour="RED"), MALFORMED,
     "seats[1].colour"),
    ("ended before started", _set(lambda r: r, "ended", "2026-09-21T14:00:00Z"),
     RecordFailure.ENDS_BEFORE, None),
    ("a started that is no time", _set(lambda r: r, "started", "yesterday"), MALFORMED,
     "started"),
    ("a day that does not exist", _set(lambda r: r, "started", "2026-02-30T10:00:00Z"),
     MALFORMED, "started"),
    ("a time without its zone", _set(lambda r: r, "ended", "2026-09-21 14:43:20"), MALFORMED,
     "ended"),
    ("a time as a number", _set(lambda r: r, "ended", 1790000000), MALFORMED, "ended"),
    ("an undocumented header field", _set(lambda r: r, "comment", "hi"), UNKNOWN, "comment"),
    ("an undocumented option", lambda r: r["options"].update(house=1), UNKNOWN,
     "options.house"),
    ("an undocumented field of a table event", lambda r: turn(r, "seat").update(note="x"),
     UNKNOWN, None),
    ("an undocumented field of a turn", lambda r: r["turns"][2].update(note="x"), UNKNOWN,
     "turns[3].note"),
    ("a cover in a version 1 record", _version_1_with_cover, UNKNOWN, None),
    ("a cover in an otherwise version 1 record", _cover_in_version_1_only, UNKNOWN, None),
    ("a version 1 bot's strength not its name's", _version_1_strength, MALFORMED, None),
    ("19.0 as a square", _float_square, MALFORMED, None),
    ("true as square 1", _bool_square, MALFORMED, None),
    ("a float on the board", _float_board, MALFORMED, None),
    ("float points", _float_points, MALFORMED, None),
    ("true as turn 1", _true_turn_number, MALFORMED, "turns[1].n"),
    ("5.0 as turn 5", _float_turn_number, MALFORMED, "turns[5].n"),
    ("a reshuffle of 45.0 cards", _float_reshuffle, MALFORMED, None),
    ("version 2.0", _set(lambda r: r, "version", 2.0), RecordFailure.VERSION, None),
    ("a part's field named with a line break", _set(lambda r: r["turns"][0]["parts"][0]
     if r["turns"][0]["type"] == "move" else r, "\n", None), RecordFailure.UNKNOWN_FIELD,
     None),
    ("a table id that is a number", _set(lambda r: r, "tid", 7), MALFORMED, "tid"),
    ("game number 0", _set(lambda r: r, "game", 0), MALFORMED, "game"),
    ("game number 1.0", _set(lambda r: r, "game", 1.0), MALFORMED, "game"),
    ("no hosts", _set(lambda r: r, "hosts", []), MALFORMED, "hosts"),
    ("hosts' epochs not rising", _set(lambda r: r, "hosts", [
        {"epoch": 2, "host": "Ann"}, {"epoch": 1, "host": "Bob"}]), MALFORMED,
     "hosts[2].epoch"),
    ("a host of another field", _set(lambda r: r, "hosts", [{"epoch": 1, "name": "Ann"}]),
     MALFORMED, "hosts[1]"),
    ("version true", _set(lambda r: r, "version", True), RecordFailure.VERSION, None),
    ("a table named by a number", _set(lambda r: r, "table", 5), MALFORMED, "table"),
    ("a host that is a list", _set(lambda r: r, "host", ["Ann"]), MALFORMED, "host"),
    ("no program", _set(lambda r: r, "program", None), MALFORMED, "program"),
    ("a negative seed (dealing as its opposite)",
     lambda r: r.update(seed=-r["seed"]), MALFORMED, "seed"),
    ("a variant in capitals", lambda r: r.update(variant=r["variant"].upper()), MALFORMED,
     "variant"),
    ("a cover by a godlike bot", lambda r: turn(r, "cover").update(strength="godlike"),
     MALFORMED, None),
    ("a seat event of an unknown kind", lambda r: turn(r, "seat").update(player="alien"),
     MALFORMED, None),
    ("chat that is a number", lambda r: turn(r, "chat").update(text=42), MALFORMED, None),
    ("a return with no name", lambda r: turn(r, "back").update(name=None), MALFORMED, None),
    ("chat from a colour not seated",
     lambda r: turn(r, "chat").update(colour="purple"), MALFORMED, None),
    ("a turn type that is none", lambda r: turn(r, "chat").update(type="shout"),
     MALFORMED, None),
]


@pytest.mark.parametrize("name", sorted(GOLDEN))
@pytest.mark.parametrize(("what", "mutate", "code", "field"), MUTATIONS,
                         ids=[m[0] for m in MUTATIONS])  # fmt: skip
def test_each_mutation_is_refused_and_named(
    name: str, what: str, mutate: Mutate, code: RecordFailure, field: str | None
) -> None:
    record = copy.deepcopy(GOLDEN[name])
    if mutate(record) is False:
        pytest.skip(f"{what}: not in {name}")
    with pytest.raises(RecordError) as info:
        check(load(dump(record), "x.json"), "x.json")
    assert info.value.code is code, str(info.value)
    if field is not None:
        assert info.value.fields.get("field", info.value.fields.get("part")) == field
    assert "\n" not in str(info.value)


def test_a_record_without_a_seed_cannot_be_checked() -> None:
    for record in GOLDEN.values():
        taken = copy.deepcopy(record)
        taken["seed"] = None
        del taken["deck"]
        with pytest.raises(RecordError) as info:
            check(load(dump(taken)), "x.json")
        assert info.value.code is RecordFailure.NO_SEED
        assert str(info.value).startswith("x.json cannot be checked: ")


def _duplicate_first(data: bytes) -> bytes:
    """A second ``first`` before the real one: a reader may take either."""
    record = json.loads(data)
    liar = other_seated(record, record["first"])
    return data.replace(b'  "first":', b'  "first": "%s",\n  "first":' % liar.encode(), 1)


def _nan_chat(data: bytes) -> bytes:
    return data.replace(b'"text": "good luck!"', b'"text": NaN', 1)


def _text_form(data: bytes) -> bytes:
    return "\n".join(record_lines(load(data))).encode() + b"\n"


def _greek_text_form(data: bytes) -> bytes:
    with use_language("el"):
        return _text_form(data)


#: Each mutation of a record's bytes, and the failure ``load`` names.
BYTES: list[tuple[str, Callable[[bytes], bytes], RecordFailure]] = [
    ("bad UTF-8 in a name", lambda d: d.replace(b'"Ann"', b'"A\xffnn"', 1), RecordFailure.NOT_UTF8),
    ("Latin-1 text", lambda d: d.replace(b"good luck!", "bonne chance é".encode("latin-1")),
     RecordFailure.NOT_UTF8),
    ("deep nesting in chat", lambda d: d.replace(b'"good luck!"', b"[" * 50_000 + b"]" * 50_000),
     RecordFailure.NESTED),
    ("the text form", _text_form, RecordFailure.TEXT_FORM),
    ("the text form in Greek", _greek_text_form, RecordFailure.TEXT_FORM),
    ("a field written twice", _duplicate_first, RecordFailure.TWICE),
    ("NaN", _nan_chat, RecordFailure.NOT_JSON),
]


@pytest.mark.parametrize("name", sorted(GOLDEN))
@pytest.mark.parametrize(("what", "mutate", "code"), BYTES, ids=[b[0] for b in BYTES])
def test_each_mutation_of_the_bytes_is_named(
    name: str, what: str, mutate: Callable[[bytes], bytes], code: RecordFailure
) -> None:
    data = (ROOT / "protocol/records" / f"{name}.json").read_bytes()
    bad = mutate(data)
    assert bad != data, what
    with pytest.raises(RecordError) as info:
        check(load(bad, "x.json"), "x.json")
    assert info.value.code is code, str(info.value)
    assert "\n" not in str(info.value)


def test_a_float_square_is_named_by_its_turn_and_part() -> None:
    record = copy.deepcopy(GOLDEN["team-4"])
    _float_square(record)
    move = next(t for t in record["turns"] if t["type"] == "move" and t["parts"]
                and isinstance(t["parts"][0]["to"], float))  # fmt: skip
    with pytest.raises(RecordError) as info:
        check(load(dump(record)), "x.json")
    assert str(info.value) == (
        f"x.json is not a valid game record: turns[{move['n']}].parts[1].to is missing or wrong"
    )
