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
    JoinFailure,
    Joining,
    JournalFailure,
    Link,
    LinkNews,
    Place,
    RefuseReason,
    Said,
)
from sorry_lan.net.client import JoinError
from sorry_lan.net.host import HostError
from sorry_lan.net.journal import JournalDamaged, JournalError, JournalLocked
from sorry_lan.net.saved import NotChosen
from sorry_lan.wire.errors import FATAL_REASONS

ALL = [code for kind in KINDS for code in kind]


def fields(template: str) -> set[str]:
    return {name for _l, name, _s, _c in string.Formatter().parse(template) if name}


def sample(code: Code) -> dict[str, object]:
    """A distinct number for each field of ``code``'s templates (a count of 7 for ``n``)."""
    names = fields(code.template) | fields(code.plural) | fields(code.english)
    return {name: 7 if name == "n" else 101 + i for i, name in enumerate(sorted(names))}


@pytest.mark.parametrize("code", ALL, ids=str)
def test_str_of_each_coded_error_is_english_with_its_fields_filled(code: Code) -> None:
    assert code.template  # every member is given its words
    values = sample(code)
    text = str(Coded(code, **values))
    english = code.english or code.plural or code.template
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


def test_a_refusal_says_the_hosts_text_only_where_its_english_has_room() -> None:
    assert str(RefuseReason.FULL(more=" (4 of 4)")) == "the game is full (4 of 4)"
    assert str(RefuseReason.STARTED(more=" (x)")) == (
        "the game has already started and has no seat for you"
    )
    assert RefuseReason("full") is RefuseReason.FULL  # the wire decodes by value
    err = JoinError(RefuseReason.BAD_TOKEN, RefuseReason.BAD_TOKEN(more=""))
    assert err.text == str(err) == "your seat is no longer held at this table"


def test_join_failures_keep_their_reason_and_say_the_detail_in_english() -> None:
    err = JoinError(JoinFailure.UNREACHABLE, Joining.SILENT(host="h", port=4000, seconds=2.5))
    assert err.reason is JoinFailure.UNREACHABLE and err.code is Joining.SILENT
    assert err.text == (
        "h:4000 took the connection but did not answer like a sorry-lan table within 2.5 s: "
        "check the address and port"
    )
    assert JoinError(JoinFailure.PIN_NEEDED).text == "this game needs a PIN: give it with --pin"
    assert {j.template for j in Joining} == {
        JoinFailure.UNREACHABLE.template,
        JoinFailure.LOST.template,
    }


def test_link_news_knows_its_state() -> None:
    assert {news.state for news in LinkNews} == set(Link)
    assert LinkNews.GAVE_UP_WATCHING.state is Link.LOST
    # each reads as its state's words, but the host's own goodbye, which says more
    said_more = {LinkNews.CLOSED}
    # ...and the news of who hosts the table next (issue 19), which say who:
    said_more |= {
        LinkNews.HOST_LOST_WAITING, LinkNews.NEW_HOST, LinkNews.YOU_HOST,
        LinkNews.TABLE_MOVED, LinkNews.CLAIM_REFUSED,
    }
    # ...and that no laptop can host it (issue 31): waiting for the host, then not
    said_more |= {LinkNews.HOST_LOST_NO_HEIR, LinkNews.GAVE_UP_NO_HEIR}
    assert LinkNews.HOST_LOST_NO_HEIR.state is Link.RECONNECTING
    assert LinkNews.GAVE_UP_NO_HEIR.state is Link.LOST
    # ...and that the host did not answer a ping, while still connected (issue 33)
    said_more |= {LinkNews.QUIET, LinkNews.QUIET_NO_HEIR, LinkNews.ANSWERS}
    assert {LinkNews.QUIET.state, LinkNews.ANSWERS.state} == {Link.CONNECTED}
    assert all(news.template == news.state.template for news in set(LinkNews) - said_more)
    assert LinkNews.CLOSED.state is Link.LOST and LinkNews.CLOSED.template != Link.LOST.template
    assert LinkNews.HOST_LOST_WAITING.state is Link.RECONNECTING
    assert LinkNews.NEW_HOST.state is LinkNews.YOU_HOST.state is Link.CONNECTED
    assert str(LinkNews.NEW_HOST(name="Ann")) == "Ann's laptop hosts the table now"
    assert str(LinkNews.HELD(reason="the host stopped answering")) == (
        "connection lost (the host stopped answering); reconnecting, your seat is held for you"
    )
