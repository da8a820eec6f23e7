"""A record edited anywhere, to any JSON value, is refused with a RecordError or
replays: the checker never raises anything else (a stranger's file gets a sentence,
never a traceback), and the text form never fails on what ``replay`` does not catch."""

from __future__ import annotations

import contextlib
import copy
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sorry_lan.i18n.recordwords import record_lines as text_lines
from sorry_lan.records import RecordError, check, load

GOLDEN = load(
    (Path(__file__).resolve().parents[2] / "protocol/records/standard-2.json").read_bytes()
)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:40]):  # the first turns are enough to reach
            out += _places(v, (*path, i))
    return out


PLACES = _places(GOLDEN)[1:]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PLACES), JSON)
def test_any_edit_is_refused_with_a_record_error_or_replays(place: tuple[Any, ...], value: Any
                                                            ) -> None:  # fmt: skip
    record = copy.deepcopy(GOLDEN)
    target = record
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = value
    try:
        check(record)
    except RecordError as exc:
        assert "\n" not in str(exc)
    with contextlib.suppress(ValueError, TypeError, AttributeError):
        text_lines(record)  # replay says "not a game record" for these
