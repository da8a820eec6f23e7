"""Another game, at the host core (README "Another game", SPEC section 5): the owner's
``rematch`` opens the next game's lobby with the same seats, where people change
colour, get ready or leave and the owner starts; a player's ``rematch`` only says
they want one; a headless table waits for every person seated; a ``bye`` after a game
is leaving; and a person who missed the end is told the result on coming back (while
a headless host stays up for them).  In memory, on the pair's fake clock."""

from __future__ import annotations

from pair import Pair, SessionClient

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Phase
from sorry_lan.wire import messages as m
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason

QUIET = HostOptions(heartbeat=1000.0, dead_after=5000.0)  # nobody is dropped for silence
NAMES = ("ann", "bob", "cat", "dan")


def _hosted(seed: int = 4) -> tuple[Pair, list[SessionClient]]:
    """ann hosts (the owner) and bob, cat and dan join; the game is played out."""
    table = Table(TableConfig(seats=4, auto_start=False, seed=seed))
    owner, token = table.join(None, "ann")
    table.owner = owner.pid
    pair = Pair(table, QUIET)
    clients = [pair.join("ann", token=token)[1]]
    clients += [pair.join(name)[1] for name in NAMES[1:]]
    clients[0].send(m.Start())
    pair.pump()
    pair.play_first_moves(clients)
    assert table.phase is Phase.FINISHED
    return pair, clients


def _ready(client: SessionClient) -> dict[str, bool]:
    return {p.name: p.ready for p in client.last(m.Lobby).players}


def test_a_players_rematch_says_they_want_one_and_nothing_starts() -> None:
    pair, (_ann, bob, cat, dan) = _hosted()
    for c in (bob, cat, dan):
        c.take()
    bob.send(m.Rematch())
    pair.pump()
    assert pair.table.phase is Phase.FINISHED
    assert _ready(cat) == {"ann": False, "bob": True, "cat": False, "dan": False}
    assert not any(isinstance(x, m.Rematch | m.Snapshot) for x in cat.take())


def test_the_owners_rematch_opens_the_next_games_lobby_with_the_same_seats() -> None:
    pair, (ann, bob, cat, dan) = _hosted()
    first = pair.table.game
    colours = {p.name: p.colour for p in pair.table.players.values()}
    cat.send(m.Rematch())
    pair.pump()
    for c in (ann, bob, cat, dan):
        c.take()
    ann.send(m.Rematch())
    pair.pump()
    assert pair.table.phase is Phase.LOBBY and pair.table.game is first  # no new game yet
    for c in (ann, bob, cat, dan):
        got = c.inbox
        assert [type(x) for x in got[:2]] == [m.Rematch, m.Lobby], got
        assert not any(isinstance(x, m.Snapshot) for x in got)
        assert c.session.state is State.LOBBY
    # Whoever asked (the owner too) is ready; the others have their say in the lobby.
    assert _ready(dan) == {"ann": True, "bob": False, "cat": True, "dan": False}
    assert {p.name: p.colour for p in pair.table.players.values()} == colours
    # bob leaves, dan takes his colour and gets ready, then the owner starts.
    bob.session.close()
    pair.pump()
    free = colours["bob"]
    dan.send(m.ChooseColour(colour=free))  # type: ignore[arg-type]
    dan.send(m.Ready(ready=True))
    pair.pump()
    roster = {p.name: (p.colour, p.ready) for p in dan.last(m.Lobby).players}
    assert roster == {"ann": (colours["ann"], True), "cat": (colours["cat"], True),
                      "dan": (free, True)}  # fmt: skip
    ann.send(m.Start())
    pair.pump()
    game = pair.table.game
    assert game is not None and game is not first and not game.over
    assert sorted(game.seated) == sorted([colours["ann"], colours["cat"], free])
    assert dan.last(m.Snapshot).you == free


def test_a_bye_after_the_game_leaves_the_table_at_once() -> None:
    pair, (_ann, bob, cat, _dan) = _hosted()
    bob.session.close()  # what `sorry-lan bot --games 1` does after its game
    pair.pump()
    names = [p.name for p in cat.last(m.Lobby).players]
    assert "bob" not in names and len(names) == 3  # left, not "away" with a seat held
    assert all(p.connected for p in cat.last(m.Lobby).players)


def _headless(people: int, bots: int = 1, grace: float = 30.0) -> tuple[Pair, list[SessionClient]]:
    table = Table(TableConfig(seats=people + bots, auto_start=True, seed=6, grace=grace))
    for _ in range(bots):
        table.add_bot(None)
    pair = Pair(table, QUIET)
    clients = [pair.join(NAMES[i])[1] for i in range(people)]
    pair.play_first_moves(clients)
    assert table.phase is Phase.FINISHED
    return pair, clients


def test_a_headless_table_waits_for_a_person_who_is_away_to_have_a_say() -> None:
    pair, (ann, bob, cat) = _headless(3, grace=30.0)
    first = pair.table.game
    cid = next(c for c, end in pair.clients.items() if end is cat)
    pair.lose(cid)  # cat's laptop sleeps
    ann.send(m.Rematch())
    bob.send(m.Rematch())
    pair.pump()
    assert pair.table.game is first  # cat is not pulled in
    assert pair.phase_now() is Phase.FINISHED
    pair.advance(31.0)  # cat's seat is freed after the grace: the lobby opens, a seat free
    assert pair.phase_now() is Phase.LOBBY and pair.table.game is first
    assert [p.name for p in ann.last(m.Lobby).players if not p.bot] == ["ann", "bob"]
    _d, dan = pair.join("dan")  # a newcomer takes it: the table starts by itself
    game = pair.table.game
    assert game is not first and game is not None and pair.table.phase is Phase.PLAYING
    assert dan.last(m.Snapshot).sid == game.state_id


def _cut_off_until_the_end(pair: Pair, cid: int, players: list[SessionClient]) -> None:
    """Connection ``cid`` is cut off (the host does not know: nothing reaches it) and
    the game is played to its end, a bot moving for it when its turn times out."""
    pair.open.discard(cid)
    game = pair.table.game
    assert game is not None
    for _ in range(1000):
        if game.over:
            return
        pair.play_first_moves(players, rounds=1)
        pair.advance(1.0)
    raise AssertionError("the game did not end")


def _headless_with_ann_cut_off() -> tuple[Pair, int, SessionClient]:
    """A headless table of ann and a bot whose game ended while ann was cut off."""
    table = Table(TableConfig(seats=2, auto_start=True, seed=5, grace=60.0, turn_timeout=0.5))
    table.add_bot(None)
    pair = Pair(table, QUIET)
    cid, ann = pair.join("ann")
    _cut_off_until_the_end(pair, cid, [])
    return pair, cid, ann


def test_a_headless_host_stays_up_for_a_player_cut_off_at_the_end_and_tells_the_result() -> None:
    pair, cid, ann = _headless_with_ann_cut_off()
    game = pair.table.game
    assert game is not None and game.over
    assert pair.stops == 0  # she never answered the ping after the over: still owed
    pair.lose(cid)  # the host notices the connection is gone
    pair.advance(10.0)
    assert pair.stops == 0
    _back, back = pair.join("ann", token=ann.token)  # within the grace after the end
    over = back.last(m.GameOver)
    assert list(over.winners) == list(game.winners)
    assert pair.stops == 1  # told: the table is done


def test_a_headless_host_waits_no_longer_than_the_grace_for_the_result_owed() -> None:
    pair, _cid, _ann = _headless_with_ann_cut_off()
    pair.advance(59.0)
    assert pair.stops == 0
    pair.advance(2.0)
    assert pair.stops == 1


def test_a_player_back_after_the_lobby_opened_is_told_the_result_first() -> None:
    table = Table(TableConfig(seats=4, auto_start=False, seed=4, turn_timeout=0.5))
    owner, token = table.join(None, "ann")
    table.owner = owner.pid
    pair = Pair(table, QUIET)
    _a, ann = pair.join("ann", token=token)
    cid, bob = pair.join("bob")
    ann.send(m.Start())
    pair.pump()
    _cut_off_until_the_end(pair, cid, [ann])
    game = pair.table.game
    assert game is not None and game.over
    pair.lose(cid)
    ann.send(m.Rematch())
    pair.pump()
    assert pair.table.phase is Phase.LOBBY
    _new, back = pair.join("bob", token=bob.token)
    kinds = [type(x) for x in back.inbox]
    # (the game's record, version 3, follows its result)
    assert kinds[:6] == [m.Welcome, m.Lobby, m.Snapshot, m.GameOver, m.RecordPart, m.Rematch]
    assert list(back.last(m.GameOver).winners) == list(game.winners)
    assert back.session.state is State.LOBBY
    # Someone who was told the result already comes back to the lobby alone.
    _again, cat = pair.join("cat")
    assert [type(x) for x in cat.inbox] == [m.Welcome, m.Lobby]


def test_the_result_still_names_a_player_who_left_after_the_end() -> None:
    from sorry_lan.authority.seat_messages import game_over
    from sorry_lan.commands.table_report import result_words
    from sorry_lan.tui.lines import format_result

    pair = Pair(Table(TableConfig(seats=2, auto_start=True, seed=3)))
    _a, ann = pair.join("ann")
    _b, bob = pair.join("bob")
    pair.play_first_moves([ann, bob])
    game = pair.table.game
    assert game is not None and game.over
    bob.send(m.Bye(reason=ByeReason.QUIT))
    pair.pump()
    assert [p.name for p in pair.table.players.values()] == ["ann"]  # bob left the table
    assert pair.table.played_by == {0: "ann", 1: "bob"}
    said = format_result(game_over(game), pair.table.played_by)
    assert said in ("Red (ann) won.", "Blue (bob) won.")
    assert "ann" in result_words(pair.table) and "bob" in result_words(pair.table)
