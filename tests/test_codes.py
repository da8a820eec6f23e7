"""The codes a user may read: one member each, English by ``str()``, fields filled."""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from sorry_lan.authority.restore import BadRecord
from sorry_lan.codes import (
    KINDS,
    Code,
    Coded,
    ErrorReason,
    HostFailure,
    JournalFailure,
    Place,
    Said,
)
from sorry_lan.net.host import HostError
from sorry_lan.net.journal import JournalDamaged, JournalError, JournalLocked
from sorry_lan.net.saved import NotChosen
from sorry_lan.wire.errors import FATAL_REASONS

ALL = [code for kind in KINDS for code in kind]


def fields(template: str) -> set[str]:
    return {name for _l, name, _s, _c in string.Formatter().parse(template) if name}


def sample(code: Code) -> dict[str, object]:
    """A distinct value for each field of ``code``'s templates (a count for ``n``)."""
    names = fields(code.template) | fields(code.plural)
    return {name: 7 if name == "n" else f"<{name}>" for name in sorted(names)}


@pytest.mark.parametrize("code", ALL, ids=str)
def test_str_of_each_coded_error_is_english_with_its_fields_filled(code: Code) -> None:
    assert code.template  # every member is given its words
    values = sample(code)
    text = str(Coded(code, **values))
    english = code.plural or code.template
    assert text == english.format(**values)
    for name, value in values.items():
        assert str(value) in text, (code, name)
    assert "{" not in text.replace("${", "")  # ${env} is the shell's, not a field


def test_codes_are_their_wire_values_and_kinds_list_every_code_class() -> None:
    assert str(ErrorReason.COLOUR_TAKEN) == "colour_taken"
    assert ErrorReason("stale") is ErrorReason.STALE  # the wire decodes by value
    assert set(ErrorReason) >= FATAL_REASONS
    assert {type(c) for c in ALL} == set(KINDS)
    values = [(type(c), c.value) for c in ALL]
    assert len(values) == len(set(values))


def test_a_field_that_is_a_code_is_worded_too() -> None:
    err = HostError(HostFailure.PORT_IN_USE, port=4000, host=Place.THIS_MACHINE)
    assert str(err) == (
        "port 4000 is already in use on this machine (is another sorry-lan host running?); "
        "choose another with --port"
    )
    damage = JournalFailure.DAMAGED_AT(path="/j/x.journal", problem="line 2: bad")
    assert isinstance(damage, Said) and damage.fields["problem"] == "line 2: bad"
    nested = HostError(HostFailure.NOTHING_SALVAGED, damage=damage)
    assert str(nested) == (
        "/j/x.journal is damaged at line 2: bad, and nothing before the damage can be resumed"
    )
    assert nested.code is HostFailure.NOTHING_SALVAGED and nested.fields["damage"] is damage


def test_plural_codes_count_by_n() -> None:
    one = NotChosen(JournalFailure.AMBIGUOUS, wanted="'2026'", n=1)
    two = NotChosen(JournalFailure.AMBIGUOUS, wanted="'2026'", n=2)
    assert str(one) == "1 saved game has an id starting '2026'; give more of it"
    assert str(two) == "2 saved games have ids starting '2026'; give more of it"


def test_the_journal_errors_keep_their_details_and_english() -> None:
    damaged = JournalDamaged(Path("/j/a.journal"), 3, "it is bad", [], 10)
    assert str(damaged) == "/j/a.journal is damaged at line 3: it is bad"
    assert (damaged.line, damaged.problem, damaged.valid_bytes) == (3, "it is bad", 10)
    bad = BadRecord(4, "unknown journal record 'x'")
    assert str(bad) == "record 5 (unknown journal record 'x')" and bad.index == 4
    locked = JournalLocked(JournalFailure.LOCKED, name="a.journal")
    assert str(locked).startswith("another sorry-lan host is running the game in a.journal")
    assert isinstance(locked, JournalError) and isinstance(bad, Coded)
