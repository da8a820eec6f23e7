"""The game so far one client builds (``client.so_far``), at its edges: the turns lost
before the first decision (told only by the first snapshot), a split 7 whose first
part bumps, an 11's swap, a discard, a long message in parts, and every case where
the game so far cannot be known and is None, never wrong."""

from __future__ import annotations

from sorry_lan.authority.seat_messages import move_events
from sorry_lan.client.so_far import SoFar
from sorry_lan.records.entries import move_entry
from sorry_lan.rules import START, Card, Colour, Move, MoveKind, Variant, generate
from sorry_lan.rules.cards import card_counts
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import PlayerInfo

RED, BLUE = 0, 1
START16 = (START,) * 16


def snap(
    pawns: tuple[int, ...] = START16, *, sid: int = 3, turn: int = RED,
    lost: tuple[Card, ...] = (), variant: Variant = Variant.STANDARD,
) -> m.Snapshot:  # fmt: skip
    return m.Snapshot(
        sid=sid, variant=variant, you=Colour.RED, colours=(Colour.RED, Colour.BLUE),
        pawns=pawns, turn=Colour(turn), card=Card.ONE, hand=None, pile=44 - len(lost),
        discards=len(lost), top=lost[-1] if lost else None,
        discarded=card_counts(lost), scores=None,
    )  # fmt: skip


def begun(pawns: tuple[int, ...] = START16, **kw: object) -> SoFar:
    seen = SoFar()
    seen.begin(snap(pawns, **kw), None)  # type: ignore[arg-type]
    return seen


def turns(seen: SoFar) -> list[dict[str, object]]:
    record = seen.record()
    assert record is not None, seen.why
    return list(record["turns"])


def test_the_turns_lost_before_the_first_decision_come_from_the_first_snapshot() -> None:
    # red lost a 5, blue a 12 (the discard pile's top): red is to play again
    seen = begun(lost=(Card.FIVE, Card.TWELVE), turn=RED)
    assert turns(seen) == [
        {"n": 1, "type": "lost", "who": "red", "card": "5"},
        {"n": 2, "type": "lost", "who": "blue", "card": "12"},
    ]
    record = seen.record()
    assert record is not None and record["first"] == "red" and record["started"] is None
    assert record["options"] == {"first": None}
    # three lost, the same card twice before the last: the order is known too
    seen = begun(lost=(Card.FOUR, Card.FOUR, Card.TEN), turn=BLUE)
    assert [t["who"] for t in turns(seen)] == ["red", "blue", "red"]


def test_lost_turns_whose_order_nobody_was_told_make_no_game_so_far() -> None:
    seen = begun(lost=(Card.FOUR, Card.FIVE, Card.TEN), turn=BLUE)
    assert seen.record() is None and seen.why is not None and "order" in seen.why
    # a card that could have moved is not a turn lost: the snapshot is not a start
    assert begun(lost=(Card.ONE,), turn=BLUE).record() is None


def test_a_first_player_chosen_must_be_who_played_first() -> None:
    seen = SoFar()
    seen.begin(snap(turn=BLUE), BLUE)
    record = seen.record()
    assert record is not None and record["options"] == {"first": "blue"}
    seen.begin(snap(turn=BLUE), RED)  # red was the last winner: red should be first
    assert seen.record() is None
    seen.begin(snap(), None, chosen_known=False)  # who won before is not known
    assert seen.record() is None


def played(seen: SoFar, pawns: tuple[int, ...], who: int, card: Card, kind: MoveKind,
           sid: int) -> list[dict[str, object]]:  # fmt: skip
    """Every legal move of ``kind``, each told to a copy as the host tells it, and the
    entries made: each the record's own ``move_entry``."""
    rules = Variant.STANDARD.rules
    made = []
    for move in generate(pawns, card, rules.move_context(pawns, who)):
        if move.kind != kind:
            continue
        copy = begun(pawns, sid=sid - 1)
        copy.events(m.Events(sid=sid, colour=Colour(who), notation=move.notation(),
                             events=tuple(move_events(move, who))))  # fmt: skip
        entry = turns(copy)[-1]
        assert entry == {"n": 1, **move_entry(who, move)}
        made.append(entry)
    return made


def test_a_split_seven_whose_first_part_bumps() -> None:
    pawns = list(START16)
    pawns[0], pawns[1] = 10, 20  # R1, R2 on the track
    pawns[4] = 13  # B1 three squares ahead of R1
    made = played(SoFar(), tuple(pawns), RED, Card.SEVEN, MoveKind.SPLIT, sid=9)
    assert any(e["parts"][0]["bumps"] for e in made)  # type: ignore[index]
    swaps = played(SoFar(), tuple(pawns), RED, Card.ELEVEN, MoveKind.SWAP, sid=9)
    assert swaps and all(e["target"] == "B1" for e in swaps)


def test_the_events_after_a_move_and_a_long_message_in_parts() -> None:
    pawns = list(START16)
    pawns[0] = 10
    seen = begun(tuple(pawns), sid=4)
    move = next(
        mv for mv in generate(tuple(pawns), Card.TWO,
                              Variant.STANDARD.rules.move_context(tuple(pawns), RED))
        if mv.kind == MoveKind.SIMPLE and mv.parts[0].pawn == 0
    )  # fmt: skip
    told = (*move_events(move, RED), (6, RED), (5, RED, 4), (5, BLUE, 5))
    seen.events(m.Events(sid=9, colour=Colour.RED, notation=move.notation(), events=told))
    seen.events(m.Events(sid=9, colour=Colour.RED, notation=move.notation(),
                         events=((7, 40), (5, RED, 8))))  # fmt: skip
    assert [t["type"] for t in turns(seen)] == ["move", "lost", "lost", "reshuffle", "lost"]
    assert turns(seen)[3] == {"n": 4, "type": "reshuffle", "cards": 40}


def test_a_move_the_engine_does_not_find_makes_no_game_so_far() -> None:
    seen = begun(sid=4)
    seen.events(m.Events(sid=5, colour=Colour.RED, notation="R1 start->4",
                         events=((3, RED, 5), (0, 0, START, 4))))  # a 5 cannot leave START
    assert seen.record() is None


def test_a_discard_in_play_for_points() -> None:
    pawns = Variant.POINTS.rules.initial_pawns((RED, BLUE))
    seen = begun(pawns, sid=4, variant=Variant.POINTS)
    seen.events(m.Events(sid=5, colour=Colour.RED, notation="discard Ten", events=((4, RED, 10),)))
    assert seen.record() is None  # not the notation the engine writes
    seen = begun(pawns, sid=4, variant=Variant.POINTS)
    notation = Move(MoveKind.DISCARD, Card.TEN, (), ()).notation()
    seen.events(m.Events(sid=5, colour=Colour.RED, notation=notation, events=((4, RED, 10),)))
    assert turns(seen)[-1]["kind"] == "discard"


def test_a_snapshot_that_moves_the_board_or_a_seat_away_loses_the_game_so_far() -> None:
    seen = begun(sid=4)
    seen.snapshot(snap(sid=4))  # the same state told again: it goes on
    assert seen.record() is not None
    seen.snapshot(snap(sid=7))  # states this client missed
    assert seen.record() is None and seen.why == "a snapshot moved the board"
    seen = begun(sid=4)
    ann = PlayerInfo(1, "ann", Colour.RED, False, True, True)
    bob = PlayerInfo(2, "bob", Colour.BLUE, False, True, True)
    seen.lobby(m.Lobby(variant=Variant.STANDARD, seats=2, host=1, players=(ann, bob),
                       spectators=0))  # fmt: skip
    assert seen.record() is not None
    gone = PlayerInfo(2, "bob", Colour.BLUE, False, True, False)
    seen.lobby(m.Lobby(variant=Variant.STANDARD, seats=2, host=1, players=(ann, gone),
                       spectators=0))  # fmt: skip
    assert seen.record() is not None  # bob is away: no bot played for him yet
    move = generate(START16, Card.ONE, Variant.STANDARD.rules.move_context(START16, BLUE))[0]
    seen.events(m.Events(sid=5, colour=Colour.BLUE, notation=move.notation(),
                         events=tuple(move_events(move, BLUE))))  # fmt: skip
    assert seen.record() is None  # a bot covered bob: a table event no client is told
    # bob made the last decision a person made, and the next roster shows him away: a
    # bot may have made it for him as he went, in the same step of the host
    seen = begun(sid=4, turn=BLUE)
    seen.lobby(m.Lobby(variant=Variant.STANDARD, seats=2, host=1, players=(ann, bob),
                       spectators=0))  # fmt: skip
    seen.events(m.Events(sid=5, colour=Colour.BLUE, notation=move.notation(),
                         events=tuple(move_events(move, BLUE))))  # fmt: skip
    assert seen.record() is not None
    seen.lobby(m.Lobby(variant=Variant.STANDARD, seats=2, host=1, players=(ann, gone),
                       spectators=0))  # fmt: skip
    assert seen.record() is None


def test_the_host_s_record_is_gone_on_from() -> None:
    seen = SoFar()
    seen.snapshot(snap(sid=6))  # welcomed mid-game: not known...
    assert seen.record() is None
    host = {"first": "blue", "options": {"first": None}, "started": "2026-12-02T01:00:00Z",
            "turns": [{"n": 1, "type": "lost", "who": "blue", "card": "2"}]}  # fmt: skip
    seen.seed(host)  # ...until the host's record comes: a 2 lost, blue draws again
    move = next(mv for mv in generate(START16, Card.ONE, Variant.STANDARD.rules.move_context(
        START16, BLUE, True)))  # fmt: skip
    seen.events(m.Events(sid=7, colour=Colour.BLUE, notation=move.notation(),
                         events=tuple(move_events(move, BLUE))))  # fmt: skip
    record = seen.record()
    assert record is not None and record["started"] == "2026-12-02T01:00:00Z"
    assert record["turns"][-1] == {"n": 2, **move_entry(BLUE, move)}
    seen.forget()
    assert seen.record() is None
