"""The host core runs games: bots to the end, bursts told move by move, the owner's
lobby, reconnects, rematches, the journal's records, the summary."""

from __future__ import annotations

import itertools

import pytest
from pair import Pair, RawClient, hello, spectate

from sorry_lan.authority.effects import Append, Send
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Phase
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.vocab import ByeReason

QUIET = HostOptions(heartbeat=1000.0, dead_after=5000.0)  # nobody is dropped for silence


def _headless(seats: int, bots: int, seed: int, **config: object) -> Pair:
    table = Table(TableConfig(seats=seats, auto_start=True, seed=seed, **config))  # type: ignore[arg-type]
    for _ in range(bots):
        table.add_bot(None)
    return Pair(table, QUIET)


@pytest.mark.parametrize("seed", [3, 4])
def test_a_game_played_in_one_burst_reaches_everyone_move_by_move(seed: int) -> None:
    # Three bots, and a person whose turns a bot plays at once (turn timeout 0): the
    # person's joining starts the game, and the whole game is one burst.
    pair = _headless(4, 3, seed, turn_timeout=0.0)
    _w, watcher = pair.connect(RawClient())
    watcher.send(spectate("eve"))
    pair.pump()
    _a, ann = pair.connect(RawClient())
    ann.send(hello("ann"))
    pair.pump()
    assert isinstance(ann.inbox[0], m.Welcome)
    restored = replay(pair.journal)
    assert restored is not None and restored.game.over
    # Over, but ann's reading of it is proven only by her answer to the ping after it:
    over = next(x for x in ann.inbox if isinstance(x, m.GameOver))
    after = ann.inbox[ann.inbox.index(over) + 1 :]
    ping = after[1]  # the game's record (version 3) comes right after over
    assert isinstance(after[0], m.RecordPart) and after[0].parts == 1
    assert pair.stops == 0 and isinstance(ping, m.Ping)
    ann.send(m.Pong(n=ping.n))
    pair.pump()
    assert pair.stops == 1  # a headless table whose game is over and told: done
    moves = restored.moves
    assert moves > 20
    for got in (watcher.inbox, ann.inbox):
        over = next(x for x in got if isinstance(x, m.GameOver))
        after = got[got.index(over) + 1 :]
        assert not any(isinstance(x, m.Events | m.Turn) for x in after)
        played = [x for x in got if isinstance(x, m.Events) and x.colour is not None]
        sids = [x.sid for x in played]
        assert len(set(sids)) == moves, (len(set(sids)), moves)  # every move, once
        assert sids == sorted(sids)  # in order
        assert over.sid == restored.game.state_id
        assert max(sids) == over.sid


def test_every_record_is_appended_before_the_output_that_depends_on_it() -> None:
    pair = _headless(2, 1, 5)
    pair.join("ann")
    kinds = [type(e) for e in pair.effects if isinstance(e, Append | Send)]
    first_send = kinds.index(Send)
    assert Append in kinds[:first_send]  # the game's record, before the welcome
    assert pair.journal[0]["k"] == "game" and pair.journal[0]["t"] == int(1_790_000_000.0)
    restored = replay(pair.journal)
    game = pair.table.game
    assert restored is not None and game is not None
    assert restored.game.pawns == game.pawns and restored.game.state_id == game.state_id


def test_people_play_a_game_to_its_end_with_a_host_bot() -> None:
    pair = _headless(3, 1, 23)
    clients = [pair.join(f"p{i}")[1] for i in range(2)]
    pair.play_first_moves(clients)
    game = pair.table.game
    assert game is not None and game.over and pair.table.phase is Phase.FINISHED
    for c in clients:
        over = c.last(m.GameOver)
        assert list(over.winners) == list(game.winners)
    assert pair.stops == 1


def test_the_hosts_own_player_adds_bots_and_starts() -> None:
    """The non-headless path: the owner's seat exists before it connects (with its
    token), nothing starts by itself, a guest cannot start, the owner can."""
    table = Table(TableConfig(seats=4, auto_start=False, seed=33))
    owner_player, owner_token = table.join(None, "host")
    table.owner = owner_player.pid
    pair = Pair(table, QUIET)
    _o, owner = pair.join("host", token=owner_token)
    welcome = owner.last(m.Welcome)
    assert welcome.owner and welcome.pid == owner_player.pid
    _g, guest = pair.join("guest")
    assert not guest.last(m.Welcome).owner
    with pytest.raises(LocalProtocolError):  # only the owner may start
        guest.send(m.Start())
    owner.send(m.AddBot(colour=None, level=None))
    pair.pump()
    assert len(owner.last(m.Lobby).players) == 3
    assert table.phase is Phase.LOBBY  # three seats taken, waiting for the owner
    owner.send(m.Start())
    pair.pump()
    assert owner.last(m.Snapshot).you == owner_player.colour
    pair.play_first_moves([owner, guest])
    game = table.game
    assert game is not None and game.over
    for c in (owner, guest):
        assert list(c.last(m.GameOver).winners) == list(game.winners)
    # the journal replays to the same finished game
    restored = replay(pair.journal)
    assert restored is not None and restored.owner == owner_player.colour
    assert restored.game.over and restored.game.pawns == game.pawns
    assert restored.bots == {p.colour for p in table.players.values() if p.bot}
    assert pair.stops == 0  # not headless: the host's player decides when to stop


def test_the_summary_follows_the_phase_lobby_playing_over_and_a_rematch() -> None:
    table = Table(TableConfig(seats=2, auto_start=False, seed=3, bot_delay=0.0))
    player, token = table.join(None, "Ann")
    table.owner = player.pid
    table.add_bot(None)
    pair = Pair(table, HostOptions(stay=True, heartbeat=1000.0, dead_after=5000.0))
    _a, ann = pair.join("Ann", token=token)
    ann.send(m.Start())
    pair.pump()
    pair.play_first_moves([ann])
    told = [(s.phase, s.seats_taken) for s in pair.summaries]
    phases = [p for p, _ in told]
    assert phases[0] is Phase.LOBBY and phases[-1] is Phase.FINISHED, phases
    assert Phase.PLAYING in phases
    assert phases.index(Phase.PLAYING) < phases.index(Phase.FINISHED)
    ann.send(m.Rematch())  # the owner's: the next game's lobby
    pair.pump()
    assert [s.phase for s in pair.summaries[-1:]] == [Phase.LOBBY]
    assert ann.last(m.Rematch) == m.Rematch()
    ann.send(m.Start())
    pair.pump()
    assert [s.phase for s in pair.summaries[-1:]] == [Phase.PLAYING]
    assert all(a != b for a, b in itertools.pairwise(pair.summaries))  # only real changes
    assert pair.summaries[0].port == 4242 and pair.summaries[0].name == "sorry-lan"


def test_a_rematch_starts_once_every_person_asked() -> None:
    pair = _headless(2, 0, 8)
    clients = [pair.join(n)[1] for n in ("ann", "bob")]
    pair.play_first_moves(clients)
    first = pair.table.game
    assert first is not None and first.over
    clients[0].send(m.Rematch())
    pair.pump()
    assert pair.table.game is first and [p.ready for p in clients[1].last(m.Lobby).players] == [
        True, False]  # fmt: skip
    clients[1].send(m.Rematch())
    pair.pump()
    game = pair.table.game
    assert game is not first and game is not None and not game.over
    for c in clients:  # (no laptop in the order: each state is settled at once)
        assert isinstance(c.inbox[-1], m.Settled) and c.inbox[-1].sid == game.state_id
        assert isinstance(c.inbox[-2], m.Turn | m.LegalMoves)
        assert c.last(m.Snapshot).sid == game.state_id
    assert [r["k"] for r in pair.journal].count("game") == 2


def test_a_player_who_comes_back_with_the_token_gets_the_seat_and_the_old_link_goes() -> None:
    pair = _headless(2, 1, 12, grace=60.0)
    old_cid, ann = pair.join("ann")
    seat = ann.last(m.Welcome).pid
    pair.play_first_moves([ann], rounds=3)
    _new, back = pair.join("ann", token=ann.token)  # the old connection still open
    assert back.last(m.Welcome).pid == seat
    assert ann.last(m.Bye) == m.Bye(reason=ByeReason.REPLACED)
    assert old_cid not in pair.open
    assert [type(x) for x in back.inbox[:3]] == [m.Welcome, m.Lobby, m.Snapshot]
    assert back.last(m.Snapshot).you is not None
    pair.play_first_moves([back])
    game = pair.table.game
    assert game is not None and game.over


def test_a_dropped_player_keeps_the_seat_and_a_bot_plays_for_her_after_the_grace() -> None:
    pair = _headless(2, 1, 14, grace=10.0)
    cid, ann = pair.join("ann")
    pair.play_first_moves([ann], rounds=2)
    game = pair.table.game
    assert game is not None
    pair.lose(cid)
    before = game.moves_played
    pair.advance(9.0)
    assert game.moves_played == before  # her turn waits
    pair.advance(2.0)
    assert game.over  # then the bots play her turns too


def test_a_table_resumed_after_its_game_ended_waits_to_tell_each_person_the_result() -> None:
    pair = _headless(2, 1, 5)
    _cid, ann = pair.join("ann")
    pair.play_first_moves([ann])
    assert pair.table.phase is Phase.FINISHED
    table = pair.table
    for p in table.players.values():
        p.conn = None
    again = Pair(table, QUIET)  # as after a restart with the game over
    assert again.stops == 0
    _cid, back = again.join("ann", token=ann.token)
    assert back.last(m.GameOver) is not None
    assert again.stops == 1  # told: the table is done
    later = Pair(table, QUIET)
    later.advance(table.config.grace + 1)  # nobody came back: done anyway
    assert later.stops == 1


def test_a_failed_journal_says_why_to_everyone_and_stops() -> None:
    pair = _headless(2, 1, 5)
    a, ann = pair.join("ann")
    _w, eve = pair.connect(RawClient())
    eve.send(spectate("eve"))
    pair.pump()
    pair.run(pair.core.journal_failed(OSError(28, "No space left on device"), pair.now))
    err = ann.last(m.Error)  # fatal: her session reads nothing after it
    assert err.fatal and "No space left on device" in err.text
    last, bye = eve.inbox[-2:]
    assert last == err and bye == m.Bye(reason=ByeReason.ERROR)
    assert not pair.open and not pair.listening and pair.stops == 1
    assert not any(isinstance(e, Append) for e in pair.core.journal_failed(OSError(), 0.0))
    assert pair.core.received(a, b"\x00", pair.now) == []  # nothing more happens
    assert pair.core.next_wakeup() is None


def test_shutdown_says_bye_to_everyone_and_closes() -> None:
    pair = Pair(Table(TableConfig(seats=4)), QUIET)
    _a, ann = pair.join("ann")
    raw_cid, _raw = pair.connect(RawClient())
    pair.run(pair.core.shutdown(ByeReason.SHUTDOWN, pair.now))
    assert ann.inbox[-1] == m.Bye(reason=ByeReason.SHUTDOWN)
    assert not pair.open and not pair.listening and raw_cid in pair.lingers
    assert pair.core.shutdown(ByeReason.SHUTDOWN, pair.now) == []  # twice: nothing more


def test_a_client_bye_frees_a_lobby_seat_at_once() -> None:
    pair = Pair(Table(TableConfig(seats=4)), QUIET)
    cid, ann = pair.join("ann")
    _b, bob = pair.join("bob")
    ann.session.close()
    pair.pump()
    assert cid not in pair.open and [p.name for p in bob.last(m.Lobby).players] == ["bob"]



def test_a_player_who_leaves_after_the_game_does_not_keep_the_host_awake() -> None:
    """After the game a seat given up is kept for the grace period, then freed (SPEC
    section 5): the core asks for no wake-up in the past, so the shell's timer does not
    spin."""
    table = Table(TableConfig(seats=2, auto_start=True, seed=5, grace=5.0))
    table.add_bot(None)
    pair = Pair(table, HostOptions(stay=True, heartbeat=1000.0, dead_after=5000.0))
    cid, ann = pair.join("ann")
    pair.play_first_moves([ann])
    assert table.phase is Phase.FINISHED
    pair.lose(cid)
    pair.advance(4.0)
    assert len(table.players) == 2  # kept for her ...
    pair.advance(60.0)  # raises if the core kept asking to wake up at once
    wake = pair.core.next_wakeup()
    assert wake is not None and wake > pair.now
    assert len(table.players) == 1  # her seat was kept for the grace, then freed
