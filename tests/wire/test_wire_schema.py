"""Field specs: the quick paths give the same values and the same errors as the full checks."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sorry_lan.rules.board import Colour
from sorry_lan.rules.cards import Card
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.records import COMPACT_MOVE, EVENT, EventKind
from sorry_lan.wire.schema import IntSpec, ListSpec, TupleSpec, VariantSpec
from sorry_lan.wire.vocab import CARD

ITEM = st.one_of(
    st.integers(-2, 70),
    st.booleans(),
    st.sampled_from([Card.SEVEN, Colour.BLUE, EventKind.BUMP]),
    st.none(),
    st.text(max_size=2),
)


def outcome(spec: VariantSpec, value: object, full: bool) -> tuple[str, object]:
    try:
        out = spec._check(value, "x") if full else spec.check(value, "x")
    except LocalProtocolError as exc:
        return "invalid", (exc.reason, exc.text)
    assert all(type(v) is int for v in out)
    return "ok", out


@given(st.lists(ITEM, max_size=7), st.booleans())
def test_compact_moves_and_events_quick_check_agrees_with_the_full_one(
    items: list[object], as_tuple: bool
) -> None:
    value = tuple(items) if as_tuple else items
    for spec in (COMPACT_MOVE, EVENT):
        assert outcome(spec, value, full=False) == outcome(spec, value, full=True)


def test_the_quick_check_takes_every_shape_the_engine_sends() -> None:
    assert COMPACT_MOVE.check([1, 7, 0, 4, 1, 10], "m") == (1, 7, 0, 4, 1, 10)
    assert COMPACT_MOVE.check((4, 11), "m") == (4, 11)
    assert EVENT.check([7, 45], "e") == (7, 45)
    for bad in ([0, 6, 0, 4], [0, 1, 16, 4], [2, 3], [1, 8, 0, 4, 1, 10], [0, True, 0, 4]):
        try:
            COMPACT_MOVE.check(bad, "m")
        except LocalProtocolError:
            continue
        raise AssertionError(f"{bad} was accepted")


def test_errors_still_say_which_item_is_wrong() -> None:
    spec = ListSpec(TupleSpec((IntSpec(0, 9), CARD)), 8)
    assert spec.check([[1, 7], (2, Card.SORRY)], "hand") == ((1, Card.SEVEN), (2, Card.SORRY))
    try:
        spec.check([[1, 7], [2, 6]], "hand")
    except LocalProtocolError as exc:
        assert exc.text.startswith("hand[1][1]: ")
    else:
        raise AssertionError("card 6 was accepted")
