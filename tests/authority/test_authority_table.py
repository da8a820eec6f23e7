"""The sans-I/O table: seats, refusals, bots, timers, restore."""

from __future__ import annotations

import pytest

from sorry_lan.authority.table import (
    CHAT_KEPT,
    JoinRefused,
    RequestRefused,
    Restored,
    Table,
    TableConfig,
)
from sorry_lan.rules import Game, Phase, Variant
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.vocab import RefuseReason


def test_seats_names_and_full() -> None:
    t = Table(TableConfig(seats=2))
    a, token_a = t.join(1, "Ann")
    with pytest.raises(JoinRefused) as e:
        t.join(2, "ann")
    assert e.value.reason is RefuseReason.NAME_TAKEN
    t.join(2, "Bob")
    with pytest.raises(JoinRefused) as e:
        t.join(3, "Cy")
    assert e.value.reason is RefuseReason.FULL
    assert t.reclaim(9, token_a, 0.0) is a and a.conn == 9
    with pytest.raises(JoinRefused) as e:
        t.reclaim(9, b"\0" * 16, 0.0)
    assert e.value.reason is RefuseReason.BAD_TOKEN


def test_only_the_owner_runs_the_lobby_and_team_play_is_filled_with_bots() -> None:
    t = Table(TableConfig(variant=Variant.TEAM, seed=3))
    owner, _ = t.join(1, "Owner")
    t.owner = owner.pid
    t.join(2, "Guest")
    with pytest.raises(RequestRefused) as e:
        t.add_bot(2)
    assert e.value.reason is ErrorReason.FORBIDDEN
    t.start(1, 0.0)
    assert t.phase is Phase.PLAYING and len(t.players) == 4
    assert sum(p.bot for p in t.players.values()) == 2


def test_bots_play_when_due_and_a_dropped_seat_waits_for_its_grace() -> None:
    t = Table(TableConfig(seats=2, auto_start=True, seed=4, grace=10.0, bot_delay=0.5))
    a, _ = t.join(1, "Ann")
    t.add_bot(None)
    t.start(None, 0.0)
    game = t.game
    assert game is not None
    t.disconnect(1, 0.0)
    deadline = t.next_deadline()
    assert deadline is not None and deadline >= 0.5
    if game.turn == a.colour:
        assert t.tick(5.0) == []  # within the grace period nobody moves for Ann
        assert t.next_deadline() == 10.0
    played = t.tick(11.0)
    assert played and game.moves_played >= 1


def test_restore_keeps_tokens_and_marks_people_away() -> None:
    game = Game(Variant.STANDARD, (0, 2), seed=5)
    game.start()
    restored = Restored(game, {0: "a", 2: "b"}, {2}, {0: "ab" * 32}, owner=0)
    t = Table.restore(TableConfig(), restored, 7.0, None)
    people = [p for p in t.players.values() if not p.bot]
    assert len(people) == 1 and people[0].away_since == 7.0 and people[0].token_hash
    assert t.owner == people[0].pid and t.phase is Phase.PLAYING


def test_a_profile_changes_the_roster_once_and_only_for_a_seat() -> None:
    table = Table(TableConfig(seats=2))
    ann, _ = table.join(1, "ann")
    table.spectate(9)
    before = table.revision
    table.set_profile(1, "hi", False)
    assert (ann.lang, ann.program) == ("hi", False) and table.revision == before + 1
    table.set_profile(1, "hi", False)  # the same again: nothing to tell anyone
    assert table.revision == before + 1
    table.set_profile(1, None, True)
    assert (ann.lang, ann.program) == (None, True) and table.revision == before + 2
    table.set_profile(9, "el", False)  # a spectator has no seat to show it on
    assert table.revision == before + 2


def test_the_table_keeps_each_games_chat_for_whoever_comes_back() -> None:
    said: list[tuple[int, str]] = []

    class Journal:
        def game(self, *args: object, **kwargs: object) -> None:
            said.clear()

        def move(self, state_id: int, compact: object, ended: bool = False) -> None:
            pass

        def seat(self, colour: int, name: str, token: str | None) -> None:
            pass

        def cover(self, colour: int, level: str) -> None:
            pass

        def back(self, colour: int, name: str) -> None:
            pass

        def chat(self, colour: int, text: str) -> None:
            said.append((colour, text))

    t = Table(TableConfig(seats=2, auto_start=True, seed=5), Journal())
    ann, _ = t.join(1, "Ann")
    t.join(2, "Bob")
    assert t.say(1, "in the lobby") is ann
    assert t.chat == [] and said == []  # only a game's chat is kept (and journalled)
    t.start(None, 0.0)
    for i in range(CHAT_KEPT + 5):
        t.say(2, f"line {i}")
    assert len(said) == CHAT_KEPT + 5  # the journal has all of it ...
    bob = t.by_colour(said[0][0])
    assert bob is not None and bob.name == "Bob"
    assert t.chat == said[5:]  # ... the table the last CHAT_KEPT lines
    restored = Restored(Game(Variant.STANDARD, (0, 1), seed=5), {0: "Ann", 1: "Bob"}, set(),
                        {}, chat=said)
    restored.game.start()
    assert Table.restore(TableConfig(), restored, 0.0, None).chat == said[5:]
    game = t.game
    assert game is not None
    while not game.over:  # play it out: a rematch begins with no chat
        mover = t.by_colour(game.turn)
        assert mover is not None and mover.conn is not None
        t.play(mover.conn, game.state_id, 0, 0.0)
    t.say(1, "well played")
    assert t.chat[-1] == (ann.colour, "well played")
    t.ask_rematch(1, 0.0)
    t.ask_rematch(2, 0.0)
    assert [t.phase, t.chat] == [Phase.LOBBY, []]  # the next game's lobby
    t.start(None, 0.0)
    assert [t.phase, t.chat] == [Phase.PLAYING, []] and t.game is not game
