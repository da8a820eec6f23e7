"""The board's log, notices, card help and command help in each player's language."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from sorry_lan.client.model import ClientModel
from sorry_lan.codes import LinkNews
from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.rules.board import START, Colour
from sorry_lan.rules.cards import Card
from sorry_lan.tui.feed import apply_event
from sorry_lan.tui.options import played_text
from sorry_lan.tui.state import Screen, UiState, card_help
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r

OTHERS = [c for c in LANGUAGES if c != "en"]
ENGLISH_LOG_WORDS = re.compile(
    r"\b(drew|draws?|discarded|turn lost|shuffled|sent back|wins?|game over|You|"
    r"forward|slides|bumps|Red|Blue|Yellow|Green|START|HOME)\b"
)


def test_played_text_in_english_follows_the_hosts_notation() -> None:
    with use_language("en"):
        simple = (r.ev_play(0, 4), r.ev_move(0, 16, 12))
        assert played_text(simple, "x") == "R1 16->12"
        slide = (r.ev_play(0, 1), r.ev_move(0, 15, 16), r.ev_slide(0, 16, 19), r.ev_bump(4, 17))
        assert played_text(slide, "x") == "R1 15->16, slides to 19, bumps B1"
        split = (r.ev_play(0, 7), r.ev_move(0, 4, 8), r.ev_move(1, 10, 13))
        assert played_text(split, "x") == "7: R1 4->8, R2 10->13"
        swap = (r.ev_play(0, 11), r.ev_move(0, 12, 30), r.ev_move(4, 30, 12))
        assert played_text(swap, "x") == "R1 12 <-> B1 30"
        sorry = (r.ev_play(0, 13), r.ev_move(0, START, 40), r.ev_bump(5, 40))
        assert played_text(sorry, "x") == "Sorry! R1 start->40, bumps B2"
        assert played_text((r.ev_play(0, 11),), "x") == "decline the 11"
        assert played_text((r.ev_play(0, 5), r.ev_discard(0, 5)), "x") == "discard 5"
        assert played_text((r.ev_play(0, 5),), "host's words") == "host's words"


def _game_log(lang: str) -> UiState:
    st = UiState(screen=Screen.GAME, you=1, seated=(0, 1), names={0: "bob", 1: "ann"})
    client = ClientModel("ann")  # never connected: the feed reads its state
    with use_language(lang):
        apply_event(
            st,
            client,
            m.Turn(sid=2, colour=Colour.RED, card=Card.ONE, hand=None, pile=40),
        )
        events = (
            r.ev_play(0, 1),
            r.ev_move(0, START, 4),
            r.ev_bump(5, 4),
            r.ev_turn_lost(1, 5),
            r.ev_draw_again(0),
            r.ev_reshuffle(44),
        )
        apply_event(
            st,
            client,
            m.Events(sid=3, colour=Colour.RED, notation="R1 start->4", events=events),
        )
        apply_event(
            st,
            client,
            m.Turn(sid=3, colour=Colour.BLUE, card=Card.TWO, hand=None, pile=39),
        )
        apply_event(st, client, m.GameOver(sid=9, winners=(Colour.BLUE,), scores=None))
    return st


def test_the_log_in_english_is_the_source() -> None:
    st = _game_log("en")
    assert "Red (bob) drew 1" in st.log and "You drew 2" in st.log
    assert "game over: Blue (ann) wins  (that's you!)" in st.log


@pytest.mark.parametrize("lang", OTHERS)
def test_the_log_has_no_english_words(lang: str) -> None:
    st = _game_log(lang)
    assert len(st.log) >= 6
    for line in st.log:
        assert not ENGLISH_LOG_WORDS.search(line), (lang, line)
    assert "bob" in st.winner or "ann" in st.winner


@pytest.mark.parametrize("lang", OTHERS)
def test_card_help_is_translated(lang: str) -> None:
    with use_language(lang):
        texts = [card_help(c) for c in (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13)]
    assert all(texts)
    for text in texts:
        assert not re.search(r"\b(move|leave|split|swap|back|START|opponent)\b", text), text


@pytest.mark.parametrize("lang", OTHERS)
def test_command_help_has_no_english_frame(lang: str) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "sorry_lan", "--lang", lang, "--help"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stdout
    for english in ("usage:", "options:", "show this help", "host a game", "print the games"):
        assert english not in out, (lang, english)
    assert "--lang CODE" in out and "host" in out and "join" in out


def test_connection_news_is_worded_by_state() -> None:
    from sorry_lan.client.model import Connection

    st = UiState(screen=Screen.GAME, you=1, seated=(0, 1))
    client = ClientModel("ann")
    with use_language("cy"):
        apply_event(st, client, Connection(LinkNews.DROPPED(reason="reset by peer")))
    assert st.notice == "collwyd y cysylltiad â'r gwesteiwr" and "q i adael" in st.link_hint
    with use_language("en"):
        apply_event(st, client, Connection(LinkNews.DROPPED(reason="reset by peer")))
    assert st.notice == "connection lost: reset by peer"


def test_a_table_the_host_closed_and_a_game_it_ended_are_said_so() -> None:
    from sorry_lan.client.model import Connection

    st = UiState(screen=Screen.GAME, you=1, seated=(0, 1))
    client = ClientModel("ann")
    with use_language("cy"):
        apply_event(st, client, m.GameOver(sid=40, winners=(), scores=None))
        assert st.winner == "daeth y gwesteiwr â'r gêm i ben; ni enillodd neb"
        apply_event(st, client, Connection(LinkNews.CLOSED()))
        assert st.notice == "caeodd y gwesteiwr y bwrdd"
    with use_language("en"):
        apply_event(st, client, m.GameOver(sid=40, winners=(), scores=None))
        assert st.winner == "the host ended the game; nobody won"
        apply_event(st, client, Connection(LinkNews.CLOSED()))
        assert st.notice == "the host closed the table" and "r rejoins" in st.link_hint


def test_join_refusals_are_worded_from_their_reason() -> None:
    from sorry_lan.net.client import JoinError, JoinFailure
    from sorry_lan.tui.controller import join_error_text
    from sorry_lan.wire.vocab import RefuseReason

    full = JoinError(RefuseReason.FULL, RefuseReason.FULL(more=" (4 of 4)"))
    with use_language("en"):
        assert join_error_text(full) == "the game is full (4 of 4)" == full.text
    with use_language("lo"):
        assert join_error_text(full) == "ໂຕະເຕັມແລ້ວ"
        assert "PIN" in join_error_text(JoinError(JoinFailure.PIN_NEEDED))
