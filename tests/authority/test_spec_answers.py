"""What SPEC says where a client writer once had to guess (issue 23, "a spec with no
guesses"), pinned on the in-memory host: a declined 11, profile and add_bot on
version 1, an unchanged or odd-case profile, the PIN's order of answers, the chat so
far, the turn's pile, a sid from the future and a kicked player's seat.

The resync burst and flood rules are pinned in ``test_core_limits.py``; the accepted
frames (an 8-item player record with nothing to say) in ``tests/wire``."""

from __future__ import annotations

import random

import msgpack
from pair import Pair, RawClient, SessionClient, spectate

from sorry_lan.authority.admission import PinThrottle
from sorry_lan.authority.seat_messages import events_messages
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Card, Game, MoveKind
from sorry_lan.rules.cards import DECK_SIZE
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import encode
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.limits import SOFTWARE
from sorry_lan.wire.records import EventKind
from sorry_lan.wire.vocab import ByeReason, RefuseReason, canonical_lang


def _frame(body: dict[str, object]) -> bytes:
    data: bytes = msgpack.packb(body, use_bin_type=True)
    return len(data).to_bytes(4, "big") + data


def _v1_owner() -> tuple[Pair, int, RawClient]:
    pair = Pair()
    pair.table.owner = 0  # the first seat is the owner's
    cid, raw = pair.connect(RawClient())
    raw.send(m.Hello(versions=(1,), software=SOFTWARE, name="ann", token=None))
    pair.pump()
    assert isinstance(raw.inbox[0], m.Welcome) and raw.inbox[0].version == 1
    assert raw.inbox[0].owner
    raw.inbox.clear()
    return pair, cid, raw


# -- 1. a declined 11 -------------------------------------------------------------------


def test_a_declined_11_is_one_turn_lost_in_place_of_the_play_and_takes_no_sid_of_its_own(
) -> None:
    rng = random.Random(4)
    declined = 0
    for seed in range(400):
        game = Game(seed=seed)
        game.start()
        while not game.over and declined < 25:
            moves = game.legal_moves()
            decline = [mv for mv in moves if mv.kind == MoveKind.DECLINE]
            move = decline[0] if decline else rng.choice(moves)
            before, mover = game.state_id, game.turn
            events = game.play(move)
            (msg,) = events_messages(game, events, None)
            lost_after = [e for e in msg.events[1:] if e[0] == EventKind.TURN_LOST]
            # every move: one sid for the next decision (or the end), one per turn lost
            assert game.state_id - before == 1 + len(lost_after)
            if decline:
                declined += 1
                assert msg.events[0] == (EventKind.TURN_LOST, mover, int(Card.ELEVEN))
                assert all(e[0] != EventKind.PLAY for e in msg.events)
                assert msg.colour == mover
                assert msg.notation == "decline the 11 (turn lost)"
            else:
                assert msg.events[0][0] in (EventKind.PLAY, EventKind.DISCARD)
        if declined >= 25:
            break
    assert declined >= 25


# -- 2, 3. profile and add_bot on version 1 ----------------------------------------------


def test_a_bad_profile_on_version_1_is_a_fatal_bad_value_a_good_one_unexpected() -> None:
    pair, cid, raw = _v1_owner()
    pair.feed(cid, _frame({"t": "profile", "lang": "el", "program": False}))
    (err,) = raw.inbox
    assert isinstance(err, m.Error) and err.reason is ErrorReason.UNEXPECTED and not err.fatal
    assert cid in pair.open
    raw.inbox.clear()
    pair.feed(cid, _frame({"t": "profile", "lang": "el_GR", "program": False}))
    (err,) = raw.inbox
    assert isinstance(err, m.Error) and err.reason is ErrorReason.BAD_VALUE and err.fatal
    assert cid not in pair.open


def test_add_bot_on_version_1_nil_level_is_the_hosts_strength_and_unknown_is_not_fatal(
) -> None:
    pair, cid, raw = _v1_owner()
    pair.feed(cid, _frame({"t": "add_bot", "colour": None, "level": None}))
    lobby = raw.inbox[-1]
    assert isinstance(lobby, m.Lobby) and sum(p.bot for p in lobby.players) == 1
    raw.inbox.clear()
    pair.feed(cid, _frame({"t": "add_bot", "colour": None, "level": "godlike"}))
    (err,) = raw.inbox
    assert isinstance(err, m.Error) and err.reason is ErrorReason.BAD_VALUE and not err.fatal
    assert "greedy" in err.text and cid in pair.open


def test_add_bot_from_a_player_who_is_not_the_owner_is_forbidden_whatever_its_fields() -> None:
    pair = Pair()
    cid, raw = pair.connect(RawClient())
    raw.send(m.Hello(versions=(1,), software=SOFTWARE, name="bob", token=None))
    pair.pump()
    raw.inbox.clear()
    pair.feed(cid, _frame({"t": "add_bot", "colour": None, "level": "godlike"}))
    (err,) = raw.inbox
    assert isinstance(err, m.Error) and err.reason is ErrorReason.FORBIDDEN


# -- 8, 9. an unchanged profile, language codes in any case -------------------------------


def test_language_codes_are_kept_in_canonical_case() -> None:
    assert canonical_lang("PT-br") == "pt-BR"
    assert canonical_lang("ZH-hant-tw") == "zh-Hant-TW"
    assert canonical_lang("sr-LATN") == "sr-Latn"
    assert canonical_lang("EL") == "el"
    assert canonical_lang("es-419") == "es-419"
    assert canonical_lang("de-CH-1996") == "de-CH-1996"


def test_a_profile_in_odd_case_shows_canonical_and_an_unchanged_one_gets_no_answer() -> None:
    pair = Pair()
    _a, ann = pair.join("ann")
    _b, bob = pair.join("bob")
    ann.take()
    bob.take()
    ann.send(m.Profile(lang="PT-br", program=False))
    pair.pump()
    roster = bob.last(m.Lobby).players
    assert [p.lang for p in roster if p.name == "ann"] == ["pt-BR"]
    ann.take()
    bob.take()
    for same in ("pt-BR", "pt-br", "PT-BR"):
        ann.send(m.Profile(lang=same, program=False))
    pair.pump()
    assert ann.take() == [] and bob.take() == []  # nothing changed: nothing said


# -- 5. the PIN: the waits, and what comes before the challenge ---------------------------


def test_pin_waits_start_after_the_third_wrong_pin_and_double() -> None:
    throttle = PinThrottle()
    now = 100.0
    waits = []
    for _ in range(6):
        waits.append(throttle.wait("10.0.0.9", now))
        throttle.failed("10.0.0.9", now)
    waits.append(throttle.wait("10.0.0.9", now))
    assert waits == [0.0, 0.0, 0.0, 1.0, 2.0, 4.0, 8.0]


def test_at_a_pin_table_the_challenge_comes_before_full_and_no_spectators() -> None:
    from sorry_lan.authority.limits import HostOptions

    pair = Pair(Table(TableConfig(seats=2, max_spectators=0)), HostOptions(pin="1234"))
    pair.join("ann", pin="1234")
    pair.join("bob", pin="1234")
    for greet in (
        m.Hello(versions=(1, 2), software=SOFTWARE, name="cat", token=None),
        spectate("eve"),
    ):
        _cid, raw = pair.connect(RawClient())
        raw.send(greet)
        pair.pump()
        assert [type(x) for x in raw.inbox] == [m.Challenge]  # nothing about the table yet
    _c, cat = pair.join("cat", pin="1234")
    refusal = cat.last(m.Refuse)
    assert refusal.reason is RefuseReason.FULL
    _e, eve = pair.join("eve", pin="1234", spectate=True)
    assert eve.last(m.Refuse).reason is RefuseReason.NO_SPECTATORS


# -- 6. the chat so far --------------------------------------------------------------------


def test_the_chat_so_far_is_the_current_games_including_after_its_end() -> None:
    pair = Pair(Table(TableConfig(seats=2, seed=3)))
    pair.table.owner = 0
    _a, ann = pair.join("ann")
    _b, bob = pair.join("bob")
    ann.send(m.Chat(pid=None, text="lobby line"))
    pair.pump()
    ann.send(m.Start())
    pair.pump()
    bob.send(m.Chat(pid=None, text="game line"))
    pair.pump()
    pair.play_first_moves([ann, bob])
    assert pair.table.game is not None and pair.table.game.over
    bob.send(m.Chat(pid=None, text="good game"))
    pair.pump()
    _c, watcher = pair.connect(SessionClient("eve", spectate=True))
    watcher.session.join()
    pair.pump()
    kinds = [type(x) for x in watcher.inbox]
    said = [x.text for x in watcher.all(m.Chat)]
    assert said == ["game line", "good game"]  # not the lobby's line
    assert kinds.index(m.Chat) < kinds.index(m.Lobby)  # before the roster: "so far"


# -- 7. the rematch at a headless table ------------------------------------------------------


def test_the_last_rematch_at_a_headless_table_gets_rematch_one_roster_and_the_snapshot(
) -> None:
    pair = Pair(Table(TableConfig(seats=2, auto_start=True, seed=3)))
    _a, ann = pair.join("ann")
    _b, bob = pair.join("bob")
    pair.play_first_moves([ann, bob])
    pair.advance(1.0)  # the pongs that prove the result was read
    ann.send(m.Rematch())
    pair.pump()
    ann.take()
    bob.take()
    bob.send(m.Rematch())
    pair.pump()
    for client in (ann, bob):
        got = client.take()
        assert [type(x) for x in got[:3]] == [m.Rematch, m.Lobby, m.Snapshot]
        roster = got[1]
        assert isinstance(roster, m.Lobby) and all(p.ready for p in roster.players)


# -- 11. turn.pile ---------------------------------------------------------------------------


def test_turn_pile_counts_after_the_turns_draw() -> None:
    pair = Pair(Table(TableConfig(seats=2, auto_start=True, seed=8)))
    _a, ann = pair.join("ann")
    _b, bob = pair.join("bob")
    seen = 0
    for _ in range(200):
        game = pair.table.game
        assert game is not None
        if game.over:
            break
        turn = bob.last(m.Turn)
        if turn.sid == game.state_id:
            assert turn.pile == len(game.deck.pile)
            assert turn.pile + len(game.deck.discards) + 1 == DECK_SIZE
            seen += 1
        pair.play_first_moves([ann, bob], rounds=1)
    assert seen > 50


# -- 12, 13. a sid from the future; a kicked player's seat -------------------------------------


def test_a_move_for_a_sid_from_the_future_is_stale() -> None:
    pair = Pair(Table(TableConfig(seats=2, auto_start=True, seed=8)))
    _a, ann = pair.join("ann")
    _b, bob = pair.join("bob")
    game = pair.table.game
    assert game is not None
    mover = ann if ann.session.moves is not None else bob
    ann.take()
    bob.take()
    mover.send(m.Move(sid=game.state_id + 5, id=0))
    pair.pump()
    err = mover.last(m.Error)
    assert err.reason is ErrorReason.STALE and not err.fatal


def _kick(pair: Pair, cid: int, raw: SessionClient) -> None:
    raw.take()
    pair.feed(cid, encode(m.Resync()) * (pair.core.options.flood_limit + 10))
    assert raw.take() == [m.Bye(reason=ByeReason.KICKED)]


def test_kicked_in_the_lobby_frees_the_seat_in_a_game_keeps_it() -> None:
    pair = Pair()
    cid, ann = pair.join("ann")
    token = ann.token
    _kick(pair, cid, ann)
    _c, back = pair.join("ann", token=token)
    assert back.last(m.Refuse).reason is RefuseReason.BAD_TOKEN

    pair = Pair(Table(TableConfig(seats=2, auto_start=True, seed=8)))
    cid, ann = pair.join("ann")
    pair.join("bob")
    token = ann.token
    _kick(pair, cid, ann)
    _c, back = pair.join("ann", token=token)
    assert isinstance(back.inbox[0], m.Welcome) and back.all(m.Snapshot)
