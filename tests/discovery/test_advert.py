"""The advert model: validation, TXT round trip, hostile TXT, join verdicts (no network)."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from zeroconf import ServiceInfo

from sorry_lan.discovery import (
    SERVICE_TYPE,
    AdvertError,
    FoundGame,
    GameAd,
    Unjoinable,
    nothing_found_message,
    parse_txt,
)
from sorry_lan.discovery.advert import judge_advert, parse_protocol_version
from sorry_lan.rules import Phase
from sorry_lan.wire.limits import PROTOCOL_VERSION, SUPPORTED_VERSIONS

names = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp")),
    min_size=1,
    max_size=20,
)
# Game names are capped at 56 UTF-8 bytes (room for a "-NN" clash suffix in a label).
game_names = names.filter(lambda s: len(s.encode("utf-8")) <= 56)

ads = st.builds(
    GameAd,
    game_name=game_names,
    host_player=names,
    seats_total=st.integers(1, 16),
    seats_taken=st.just(0),
    variant=st.from_regex(r"[a-z0-9][a-z0-9-]{0,15}", fullmatch=True),
    state=st.sampled_from(Phase),
    pin_required=st.booleans(),
    protocol_version=st.integers(0, 65535),
    table_id=st.none() | st.from_regex(r"[0-9a-z]{4,32}", fullmatch=True),
    epoch=st.integers(1, 2**32 - 1),
)


@given(ads)
def test_txt_round_trip_through_wire_bytes(ad: GameAd) -> None:
    info = ServiceInfo(SERVICE_TYPE, f"x.{SERVICE_TYPE}", port=1, properties=ad.to_txt())
    # Re-read from the raw TXT bytes, as a browser would receive them.
    received = ServiceInfo(SERVICE_TYPE, f"x.{SERVICE_TYPE}", port=1, properties=info.text)
    assert parse_txt(received.properties) == ad


@given(st.dictionaries(st.binary(max_size=12), st.none() | st.binary(max_size=40), max_size=10))
def test_garbled_properties_give_advert_error_or_an_ad(props: dict[bytes, bytes | None]) -> None:
    try:
        ad = parse_txt(props)
    except AdvertError:
        return
    assert isinstance(ad, GameAd)


@given(st.binary(max_size=300))
def test_garbled_txt_bytes_never_crash_the_parser(raw: bytes) -> None:
    info = ServiceInfo(SERVICE_TYPE, f"x.{SERVICE_TYPE}", port=1, properties=raw)
    with contextlib.suppress(AdvertError):
        parse_txt(info.properties)


def good_txt(**over: str) -> dict[bytes, bytes | None]:
    base = GameAd("Friday", "Ann", seats_total=4, seats_taken=2).to_txt()
    base.update(over)
    return {k.encode(): v.encode() for k, v in base.items()}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("seats", "5/4"),
        ("seats", "two/4"),
        ("seats", "1/99999"),
        ("pin", "yes"),
        ("state", "paused"),
        ("pv", "-1"),
        ("pv", "1.0"),
        ("game", ""),
        ("game", "x" * 200),
        ("host", "evil\x1b[2J"),
        ("var", "Has Spaces"),
    ],
)
def test_each_bad_field_is_rejected(key: str, value: str) -> None:
    with pytest.raises(AdvertError):
        parse_txt(good_txt(**{key: value}))


def test_missing_key_and_non_utf8_value_are_rejected() -> None:
    props = good_txt()
    del props[b"host"]
    with pytest.raises(AdvertError, match="host"):
        parse_txt(props)
    props = good_txt()
    props[b"game"] = b"\xff\xfe"
    with pytest.raises(AdvertError):
        parse_txt(props)


def test_unknown_keys_are_ignored_and_keys_are_case_insensitive() -> None:
    props = {k.upper(): v for k, v in good_txt().items()}
    props[b"future"] = b"something"
    assert parse_txt(props).seats_taken == 2


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game_name": ""},
        {"game_name": " padded"},
        {"game_name": "a" * 41},
        {"game_name": "é" * 30},  # 60 bytes: no room for a "-2" rename
        {"host_player": "bell\x07"},
        {"seats_total": 0},
        {"seats_total": 4, "seats_taken": 5},
        {"seats_taken": -1},
        {"variant": "-x"},
        {"state": "paused"},
        {"protocol_version": 70000},
    ],
)
def test_game_ad_validates_on_construction(kwargs: dict[str, object]) -> None:
    fields: dict[str, object] = {"game_name": "G", "host_player": "H", "seats_total": 4}
    fields.update(kwargs)
    with pytest.raises(AdvertError):
        GameAd(**fields)  # type: ignore[arg-type]


def test_state_given_as_text_is_coerced() -> None:
    assert GameAd("G", "H", 4, state="playing").state is Phase.PLAYING  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({}, None),
        ({"seats_taken": 4}, Unjoinable.FULL),
        ({"state": Phase.PLAYING}, Unjoinable.PLAYING),
        ({"state": Phase.FINISHED}, Unjoinable.FINISHED),
        ({"protocol_version": max(SUPPORTED_VERSIONS) + 1}, Unjoinable.NEWER_PROTOCOL),
        ({"protocol_version": min(SUPPORTED_VERSIONS) - 1}, Unjoinable.OLDER_PROTOCOL),
    ],
)
def test_judge_advert(changes: dict[str, object], reason: Unjoinable | None) -> None:
    fields: dict[str, object] = {"game_name": "G", "host_player": "H", "seats_total": 4}
    fields.update(changes)
    assert judge_advert(GameAd(**fields)) is reason  # type: ignore[arg-type]


def test_protocol_version_survives_an_otherwise_unreadable_record() -> None:
    assert parse_protocol_version({b"pv": b"7", b"seats": b"nonsense"}) == 7
    assert parse_protocol_version({b"pv": b"\xff"}) is None


def test_found_game_json_and_description() -> None:
    ad = GameAd("Friday", "Ann", seats_total=4, seats_taken=4, pin_required=True)
    game = FoundGame(
        service_name=f"Friday.{SERVICE_TYPE}",
        instance="Friday",
        name="Friday",
        ad=ad,
        addresses=("10.0.0.2",),
        port=4000,
        reason=Unjoinable.FULL,
        address="10.0.0.2",
    )
    data = json.loads(json.dumps(game.to_json()))
    assert data["seats_taken"] == 4 and data["joinable"] is False and data["reason"] == "full"
    assert data["pin_required"] is True and data["address"] == "10.0.0.2"
    text = game.describe()
    assert "Ann" in text and "4/4" in text and "full" in text and "PIN" in text


def test_unreadable_game_is_described_safely() -> None:
    game = FoundGame(
        service_name=f"bad\x1b.{SERVICE_TYPE}",
        instance="bad\x1b",
        name="bad\x1b",
        ad=None,
        addresses=("10.0.0.2",),
        port=4000,
        reason=Unjoinable.INVALID,
    )
    assert "\x1b" not in game.describe()
    assert game.to_json()["host_player"] is None and not game.joinable


def test_nothing_found_message_explains_the_fallback() -> None:
    msg = nothing_found_message(3, ["192.168.1.5"])
    assert "--address" in msg and "192.168.1.5" in msg and "multicast" in msg


def test_a_host_advertises_the_oldest_version_it_speaks() -> None:
    """Every client that speaks that version may try the table (hello then settles on
    the highest version both speak): a version-1 client still finds a newer host."""
    ad = GameAd(game_name="G", host_player="H", seats_total=4)
    assert ad.protocol_version == PROTOCOL_VERSION == min(SUPPORTED_VERSIONS)
    assert judge_advert(ad, supported=(1,)) is None


def test_the_table_id_is_optional_and_an_old_or_odd_one_reads_as_none() -> None:
    ad = GameAd("Friday", "Ann", seats_total=4, table_id="d616716adca6c258")
    txt = ad.to_txt()
    assert txt["tid"] == "d616716adca6c258" and parse_txt(txt) == ad
    old = GameAd("Friday", "Ann", seats_total=4).to_txt()
    assert "tid" not in old and parse_txt(old).table_id is None  # an older host's advert
    for odd in ("", "ABC", "x" * 33, "no spaces", "tab\t1"):
        assert parse_txt({**old, "tid": odd}).table_id is None, odd  # still readable
    for bad in ("", "AB12", "x" * 33, 1234):
        with pytest.raises(AdvertError):
            GameAd("Friday", "Ann", seats_total=4, table_id=bad)  # type: ignore[arg-type]
