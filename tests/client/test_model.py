"""ClientModel driven in memory: a real wire HostSession makes the bytes, a number is
the clock.  Welcome, lobby, snapshot, turns and offers, events on the board and the
replay check, the chat heard and the chat so far, discards, refusals, game over and
rematch, heartbeats, and what the model asks of the host."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from sorry_lan.authority import seat_messages as convert
from sorry_lan.bots.base import DEFAULT_STRENGTH
from sorry_lan.client.model import (
    HEARD_KEPT,
    REPLAY_MISMATCH,
    ClientEvent,
    ClientModel,
    ReplayMismatch,
    SeatNews,
)
from sorry_lan.rules import HOME, Game, Variant
from sorry_lan.rules.board import Colour
from sorry_lan.rules.cards import card_counts
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r
from sorry_lan.wire.auth import pin_key
from sorry_lan.wire.codec import Decoder
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason, RefuseReason

TOKEN = bytes(range(16))
ANN = r.PlayerInfo(0, "ann", Colour.RED, False, False, True)


class Link:
    """One connection between ``model`` and a host session, with a fake clock."""

    def __init__(self, model: ClientModel, version: int = 2, pin: str | None = None) -> None:
        self.model = model
        self.now = 100.0
        versions = tuple(range(1, version + 1))
        self.host = HostSession(pin_key=None if pin is None else pin_key(pin), versions=versions)
        model.join(self.now)
        self.heard: list[m.Message] = []  # what the host received after the greeting
        self.greeting = self.host.receive_data(model.data_to_send())

    def welcome(self, pid: int | None = 0, *, owner: bool = False) -> list[ClientEvent]:
        token = None if pid is None else TOKEN
        self.host.welcome(pid, token, owner=owner, name=self.model.name)
        return self.flush()

    def tell(self, *msgs: m.Message) -> list[ClientEvent]:
        for msg in msgs:
            self.host.send(msg)
        return self.flush()

    def flush(self) -> list[ClientEvent]:
        """Host's bytes to the model, the model's answer back to the host."""
        events = self.model.receive_data(self.host.data_to_send(), self.now)
        self.back()
        return events

    def back(self) -> list[m.Message]:
        got = self.host.receive_data(self.model.data_to_send())
        self.heard += got
        return got


def lobby(*players: r.PlayerInfo, variant: Variant = Variant.STANDARD) -> m.Lobby:
    return m.Lobby(variant=variant, seats=4, host=0, players=players, spectators=0)


def started(variant: Variant = Variant.STANDARD, seed: int = 3) -> Game:
    game = Game(variant, (0, 2), seed=seed)
    game.start()
    return game


# -- joining -------------------------------------------------------------------------


def test_a_welcome_connects_and_tells_who_we_are() -> None:
    model = ClientModel("ann")
    link = Link(model)
    assert isinstance(link.greeting[0], m.Hello) and link.greeting[0].name == "ann"
    assert not link.model.connected and link.model.pid is None
    assert link.welcome(0, owner=True) == []  # a welcome is not an event
    assert model.connected and model.pid == 0 and model.owner and model.token == TOKEN
    assert model.state is State.LOBBY and not model.closed
    assert link.heard == []  # nothing to tell in a profile: none sent


def test_a_profile_follows_the_welcome_on_version_2_only() -> None:
    el = ClientModel("ann", lang="el", program=True)
    link = Link(el)
    link.welcome(0)
    assert link.heard == [m.Profile(lang="el", program=True)]
    old = ClientModel("ann", lang="el")
    link = Link(old, version=1)
    link.welcome(0)
    assert link.heard == []
    assert not old.set_profile("cy")  # version 1 cannot hear it: kept for later
    assert old.lang == "cy"


def test_set_profile_tells_the_host_when_it_can() -> None:
    model = ClientModel("ann")
    assert not model.set_profile("cy")  # not connected: told after the welcome
    link = Link(model)
    link.welcome(0)
    assert model.set_profile("el", program=True)
    link.back()
    assert link.heard == [m.Profile(lang="cy", program=False), m.Profile(lang="el", program=True)]
    eve = ClientModel("eve", spectate=True, lang="el")
    link = Link(eve)
    link.welcome(None)
    assert link.heard == [] and not eve.set_profile("cy")  # a spectator has no roster line


def test_a_refusal_closes_and_is_kept_for_the_shell() -> None:
    model = ClientModel("ann")
    link = Link(model)
    link.host.refuse(RefuseReason.NAME_TAKEN, "the name 'ann' is taken")
    assert link.flush() == []
    assert model.refusal is not None and model.refusal.reason is RefuseReason.NAME_TAKEN
    assert model.closed and not model.connected


def test_a_challenge_is_answered_with_the_pin_or_surfaced_without_one() -> None:
    model = ClientModel("ann", pin="1234")
    link = Link(model, pin="1234")
    link.flush()  # the challenge in, the proof out
    assert not model.pin_asked and link.heard and isinstance(link.heard[0], m.Hello)
    link.welcome(0)
    assert model.connected
    lost = ClientModel("bob")
    link = Link(lost, pin="1234")
    link.flush()
    assert lost.pin_asked and not lost.connected


# -- what the host tells -------------------------------------------------------------


def test_the_lobby_is_the_event_and_names_our_colour() -> None:
    model = ClientModel("ann")
    link = Link(model)
    link.welcome(0)
    table = lobby(ANN)
    assert link.tell(table) == [table]
    assert model.lobby == table and model.colour == 0


def test_snapshot_turn_offer_and_a_move() -> None:
    game = started()
    model = ClientModel("ann")
    link = Link(model)
    link.welcome(0)
    snap = convert.snapshot(game, 0)
    turn = convert.turn(game, 0)
    offer = convert.legal_moves(game)
    told = link.tell(snap, turn, offer)
    assert told == [snap, turn, offer]
    assert model.moves is told[2]  # what a bot compares to see if its offer went stale
    assert model.snapshot == snap and model.pawns == game.pawns and model.colour == 0
    assert model.sid == game.state_id and model.turn == turn and model.moves == offer
    assert model.discarded == snap.discarded and len(model.discarded) == 14
    model.play(offer.moves[0].id)
    assert link.model.moves is None  # (link.model: mypy narrowed model.moves)
    assert link.back() == [m.Move(sid=offer.sid, id=offer.moves[0].id)]
    with pytest.raises(LocalProtocolError):
        model.play(0)  # the offer is spent


def test_events_keep_the_board_and_the_discard_pile_of_a_whole_game() -> None:
    for variant in (Variant.STANDARD, Variant.POINTS):
        game = started(variant, seed=5)
        model = ClientModel("eve", spectate=True)
        link = Link(model)
        link.welcome(None)
        link.tell(convert.snapshot(game, None))
        while not game.over and game.moves_played < 200:
            events = game.play(game.legal_moves()[0])
            told = convert.events_messages(game, events, None)
            assert link.tell(*told) == told
            assert model.pawns == game.pawns
            assert model.discarded == card_counts(game.deck.discards)
        assert model.sid == game.state_id and model.replay_mismatches == 0


def test_a_version_1_snapshot_has_no_pile_and_none_is_counted() -> None:
    game = started()
    model = ClientModel("eve", spectate=True)
    link = Link(model, version=1)
    link.welcome(None)
    link.tell(convert.snapshot(game, None, version=1))
    assert model.discarded == ()
    events = game.play(game.legal_moves()[0])
    link.tell(*convert.events_messages(game, events, None))
    assert model.discarded == () and model.pawns == game.pawns


def test_events_that_do_not_add_up_ask_for_a_resync(caplog: pytest.LogCaptureFixture) -> None:
    game = started()
    model = ClientModel("eve", spectate=True)
    link = Link(model)
    link.welcome(None)
    told = convert.snapshot(game, None)
    link.tell(replace(told, pawns=(HOME,) * 16))  # a board out of step with the host's
    events = convert.events_messages(game, game.play(game.legal_moves()[0]), None)
    with caplog.at_level(logging.WARNING):
        out = link.tell(*events)
    assert [type(ev) for ev in out] == [ReplayMismatch, m.Events]
    mismatch = out[0]
    assert isinstance(mismatch, ReplayMismatch) and mismatch.sid == game.state_id
    assert model.replay_mismatches == 1 and link.heard == [m.Resync()]
    assert [rec for rec in caplog.records if REPLAY_MISMATCH in rec.getMessage()]
    caplog.clear()  # seen: the suite-wide check must not count it
    fresh = convert.snapshot(game, None)  # the host answers with a snapshot
    assert model.seen.why is not None and REPLAY_MISMATCH in model.seen.why
    assert link.tell(fresh) == [fresh]
    assert model.pawns == game.pawns and model.sid == game.state_id
    # the fold begins again from the host's board: its history is not the whole game
    assert model.view.pawns == game.pawns and not model.view.history.whole


def test_a_refused_request_is_an_error_event_and_the_game_goes_on() -> None:
    model = ClientModel("ann")
    link = Link(model)
    link.welcome(0)
    err = m.Error(reason=ErrorReason.COLOUR_TAKEN, text="that colour is taken", fatal=False)
    assert link.tell(err) == [err]
    assert model.connected and not model.closed


def test_game_over_then_a_rematch() -> None:
    game = started()
    model = ClientModel("ann")
    link = Link(model)
    link.welcome(0)
    link.tell(convert.snapshot(game, 0), convert.legal_moves(game))
    assert model.take_seat_news() is None
    over = m.GameOver(sid=game.state_id, winners=(Colour.RED,), scores=None)
    assert link.tell(over) == [over]
    assert model.over == over and model.moves is None and model.state is State.GAME_OVER
    assert model.take_seat_news() is SeatNews.FORGET and model.take_seat_news() is None
    model.send(m.Rematch())
    assert link.back() == [m.Rematch()]
    assert link.tell(m.Rematch()) == [m.Rematch()]  # back to the lobby
    again = convert.snapshot(started(seed=4), 0)
    assert link.tell(again) == [again]
    assert link.model.over is None and model.take_seat_news() is SeatNews.KEEP


def test_a_bye_ends_the_session_and_its_reason_is_kept() -> None:
    model = ClientModel("ann")
    link = Link(model)
    link.welcome(0)
    link.host.close(ByeReason.TIMEOUT)
    assert link.flush() == []
    assert model.closed and model.bye is ByeReason.TIMEOUT


# -- the chat ------------------------------------------------------------------------


def chat(*texts: str) -> list[m.Chat]:
    return [m.Chat(pid=1, text=t) for t in texts]


def test_the_chat_so_far_waits_for_the_lobby_and_a_new_process_hears_all() -> None:
    model = ClientModel("bob")
    link = Link(model)
    link.welcome(1)
    assert link.tell(*chat("good luck", "you too")) == []  # held until the chat so far ends
    table = lobby(ANN)
    assert link.tell(table) == [*chat("good luck", "you too"), table]
    assert link.tell(*chat("welcome back")) == chat("welcome back")
    assert model.chat_heard == ["good luck", "you too", "welcome back"]


def test_a_reconnected_client_hears_only_what_it_missed() -> None:
    model = ClientModel("bob")
    link = Link(model)
    link.welcome(1)
    link.tell(lobby(ANN))
    assert link.tell(*chat("one", "one")) == chat("one", "one")  # said twice: heard twice
    link = Link(model)  # the link dropped; the same model joins again
    link.welcome(1)
    assert link.tell(*chat("one", "one", "while away"), lobby(ANN))[:-1] == chat("while away")
    assert link.tell(*chat("after")) == chat("after")
    assert model.chat_heard == ["one", "one", "while away", "after"]


def test_a_spectator_hears_the_chat_so_far() -> None:
    eve = ClientModel("eve", spectate=True)
    link = Link(eve)
    link.welcome(None)
    assert link.tell(*chat("hi"), lobby(ANN))[:-1] == chat("hi")
    assert link.tell(*chat("hello eve")) == chat("hello eve")


def test_only_the_last_lines_are_remembered() -> None:
    model = ClientModel("bob")
    link = Link(model)
    link.welcome(1)
    link.tell(lobby(ANN))
    for i in range(HEARD_KEPT + 5):
        link.tell(m.Chat(pid=1, text=str(i)))
    assert len(model.chat_heard) == HEARD_KEPT and model.chat_heard[0] == "5"


# -- asking the host, and the clock ------------------------------------------------


def test_requests_need_a_welcomed_connection() -> None:
    model = ClientModel("ann")
    with pytest.raises(LocalProtocolError):
        model.send(m.Start())
    link = Link(model)
    with pytest.raises(LocalProtocolError):  # greeted, not yet welcomed
        model.send(m.Start())
    link.welcome(0, owner=True)
    model.send(m.Start())
    assert link.back() == [m.Start()]
    link.tell(convert.snapshot(started(), 0), convert.legal_moves(started()))
    model.connection_lost()
    assert model.moves is None and not model.connected
    with pytest.raises(LocalProtocolError):
        model.send(m.Resync())


def test_add_bot_names_the_strength_for_a_version_1_host() -> None:
    for version, level in ((1, DEFAULT_STRENGTH), (2, None)):
        model = ClientModel("ann")
        link = Link(model, version=version)
        link.welcome(0, owner=True)
        model.add_bot()
        assert link.back() == [m.AddBot(colour=None, level=level)]


def test_quiet_pings_until_the_host_has_been_silent_too_long() -> None:
    model = ClientModel("ann", dead_after=20.0)
    link = Link(model)
    link.welcome(0)
    assert model.heard_at == link.now
    assert model.quiet(link.now + 5)
    assert model.quiet(link.now + 10)
    assert Decoder().feed(model.data_to_send()) == [m.Ping(n=1), m.Ping(n=2)]
    link.now += 15
    link.tell(lobby(ANN))  # heard again: the deadline moves
    assert model.quiet(link.now + 19) and not model.quiet(link.now + 21)
