"""Message and record construction: validation, normalisation, the type registry."""

from __future__ import annotations

import pytest

from sorry_lan.rules.board import START, Colour
from sorry_lan.rules.cards import NO_CARDS, Card
from sorry_lan.rules.variants import Variant
from sorry_lan.wire import limits as L
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.messages import (
    MESSAGE_TYPES,
    AddBot,
    Chat,
    Error,
    Events,
    GameOver,
    Hello,
    LegalMoves,
    Lobby,
    Snapshot,
    Turn,
    message_fields,
)
from sorry_lan.wire.records import (
    EventKind,
    MoveOption,
    PlayerInfo,
    compact_move,
    ev_bump,
    ev_move,
    ev_reshuffle,
)
from sorry_lan.wire.vocab import MsgType, clip_text


def _bad(reason: ErrorReason = ErrorReason.BAD_VALUE) -> pytest.RaisesExc[LocalProtocolError]:
    return pytest.raises(LocalProtocolError, match=reason.value)


def test_every_type_has_one_class_with_matching_tag() -> None:
    assert set(MESSAGE_TYPES) == set(MsgType)
    for mtype, cls in MESSAGE_TYPES.items():
        assert cls.TYPE is mtype
        assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert hasattr(cls, "__slots__")


def test_construction_normalises_lists_and_enums() -> None:
    turn = Turn(sid=1, colour=2, card=7, hand=[1, 13], pile=3)  # type: ignore[arg-type]
    assert turn.colour is Colour.YELLOW
    assert turn.card is Card.SEVEN
    assert turn.hand == (Card.ONE, Card.SORRY)
    assert isinstance(turn.hand, tuple)
    assert message_fields(turn)["pile"] == 3


def test_messages_are_frozen_and_hashable() -> None:
    chat = Chat(pid=None, text="hi")
    with pytest.raises(AttributeError):
        chat.text = "changed"  # type: ignore[misc]
    assert hash(chat) == hash(Chat(pid=None, text="hi"))


@pytest.mark.parametrize(
    "build",
    [
        lambda: Hello(versions=(), software="x", name="Ann", token=None),
        lambda: Hello(versions=(1, 1), software="x", name="Ann", token=None),
        lambda: Hello(versions=(1,), software="x", name="", token=None),
        lambda: Hello(versions=(1,), software="x", name=" Ann", token=None),
        lambda: Hello(versions=(1,), software="x", name="A" * 25, token=None),
        lambda: Hello(versions=(1,), software="x", name="Ann\n", token=None),
        lambda: Hello(versions=(1,), software="x", name="Ann", token=b"short"),
        lambda: Chat(pid=None, text=""),
        lambda: Chat(pid=None, text="x" * (L.CHAT_MAX + 1)),
        lambda: Chat(pid=256, text="hi"),
        lambda: Chat(pid=True, text="hi"),
        lambda: Turn(sid=-1, colour=Colour.RED, card=None, hand=None, pile=0),
        lambda: Turn(sid=1, colour=4, card=None, hand=None, pile=0),  # type: ignore[arg-type]
        lambda: Turn(sid=1, colour=Colour.RED, card=6, hand=None, pile=0),  # type: ignore[arg-type]
        lambda: Turn(sid=1, colour=Colour.RED, card=None, hand=None, pile=46),
        lambda: AddBot(colour=None, level="no spaces"),
        lambda: GameOver(sid=1, winners=(Colour.RED, Colour.RED), scores=None),
        lambda: GameOver(sid=1, winners=(), scores=(1, 2, 3)),
        lambda: Error(reason="nope", text="", fatal=False),  # type: ignore[arg-type]
        lambda: Lobby(variant="chess", seats=4, host=None, players=(), spectators=0),  # type: ignore[arg-type]
        lambda: LegalMoves(sid=1, moves=(), timeout=None),
        lambda: Events(sid=1, colour=None, notation="", events=((9, 1),)),
    ],
)
def test_invalid_values_are_refused_locally(build: object) -> None:
    assert callable(build)
    with _bad():
        build()


def test_snapshot_needs_sixteen_pawns_on_real_locations() -> None:
    base = dict(
        sid=1, variant=Variant.STANDARD, you=None, colours=(0, 1), turn=None, card=None,
        hand=None, pile=45, discards=0, top=None, discarded=NO_CARDS, scores=None,
    )
    Snapshot(pawns=(START,) * 16, **base)  # type: ignore[arg-type]
    with _bad():
        Snapshot(pawns=(START,) * 15, **base)  # type: ignore[arg-type]
    with _bad():
        Snapshot(pawns=(67,) + (START,) * 15, **base)  # type: ignore[arg-type]
    with _bad():
        Snapshot(pawns=(START,) * 16, **{**base, "colours": (1, 1)})  # type: ignore[arg-type]


def test_snapshot_counts_the_discard_pile_by_card_value() -> None:
    base = dict(
        sid=1, variant=Variant.STANDARD, you=None, colours=(0, 1), pawns=(START,) * 16,
        turn=None, card=None, hand=None, pile=36, discards=9, top=Card.SORRY, scores=None,
    )
    # Five 1s and four Sorry!s: every copy of each.
    pile = (0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4)
    assert Snapshot(discarded=list(pile), **base).discarded == pile  # type: ignore[arg-type]
    for bad in (
        pile[:13],  # one item short
        (0, 6, *pile[2:]),  # six 1s: the deck has five
        (*pile[:13], 5),  # five Sorry!s
        (0,) * 6 + (1,) + (0,) * 7,  # a card of int 6: there is none
        (-1, *pile[1:]),
        ("1", *pile[1:]),
    ):
        with _bad():
            Snapshot(discarded=bad, **base)  # type: ignore[arg-type]


def test_compact_moves_follow_the_engine_shapes() -> None:
    assert compact_move(0, 12, 3, 19) == (0, 12, 3, 19)
    assert compact_move(1, 7, 0, 8, 3, 15) == (1, 7, 0, 8, 3, 15)
    assert compact_move(2, 11, 0, 5) == (2, 11, 0, 5)
    assert compact_move(3, 13, 8, 1) == (3, 13, 8, 1)
    assert compact_move(4, 11) == (4, 11)
    assert compact_move(5, 4) == (5, 4)
    bad_moves = [
        (0, 12, 3), (1, 5, 0, 1, 2, 3), (2, 11, 16, 0), (6, 1), (0, 6, 0, 1), (0, 1, 0, 67)
    ]
    for bad in bad_moves:
        with _bad():
            compact_move(*bad)


def test_events_and_records() -> None:
    assert ev_move(2, 13, 9) == (EventKind.MOVE, 2, 13, 9)
    assert ev_bump(5, 11) == (2, 5, 11)
    assert ev_reshuffle(45) == (7, 45)
    with _bad():
        ev_move(16, 0, 1)
    option = MoveOption(id=3, notation="R1 4->11", move=[0, 7, 0, 11])  # type: ignore[arg-type]
    assert option.move == (0, 7, 0, 11)
    with _bad():
        MoveOption(id=3, notation="", move=(0, 7, 0, 11))
    player = PlayerInfo(pid=1, name="Bob", colour=1, bot=False, ready=False, connected=True)  # type: ignore[arg-type]
    assert player.colour is Colour.BLUE
    with _bad():
        PlayerInfo(pid=1, name="Bob", colour=None, bot=0, ready=False, connected=True)  # type: ignore[arg-type]


def test_clip_text_makes_any_text_fit() -> None:
    text = clip_text("line\nbreak" + "x" * 500)
    assert len(text) == L.TEXT_MAX and text.isprintable() and text.endswith("...")
    Error(reason=ErrorReason.INTERNAL, text=text, fatal=True)
