"""The advert's epoch (TXT ``ep``, protocol version 4) and each table listed once."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sorry_lan.discovery import (
    SERVICE_TYPE,
    AdvertError,
    FoundGame,
    GameAd,
    Unjoinable,
    current_tables,
    parse_txt,
)
from sorry_lan.discovery.hosting import ad_from_summary
from sorry_lan.rules import Phase

TID = "k3v9q2m7x4"


def found(name: str, tid: str | None, epoch: int = 1, *, address: str = "10.0.0.5",
          reason: Unjoinable | None = None) -> FoundGame:
    ad = GameAd(name, "Ann", seats_total=4, table_id=tid, epoch=epoch)
    return FoundGame(
        service_name=f"{name}.{SERVICE_TYPE}", instance=name, name=name, ad=ad,
        addresses=(address,), port=47474, reason=reason, address=address,
    )


def test_the_epoch_is_published_above_1_and_read_back() -> None:
    first = GameAd("Friday", "Ann", seats_total=4, table_id=TID)
    assert first.epoch == 1 and "ep" not in first.to_txt()  # the same advert as before
    moved = replace(first, host_player="Bob", epoch=3)
    assert moved.to_txt()["ep"] == "3" and parse_txt(moved.to_txt()) == moved
    assert parse_txt({k.encode(): v.encode() for k, v in moved.to_txt().items()}).epoch == 3


@pytest.mark.parametrize("odd", ["", "0", "-1", "01", "x", "1.5", "4294967296", "9" * 11])
def test_an_absent_or_odd_epoch_reads_as_1(odd: str) -> None:
    txt = GameAd("Friday", "Ann", seats_total=4, table_id=TID).to_txt()
    assert parse_txt(txt).epoch == 1
    assert parse_txt({**txt, "ep": odd}).epoch == 1  # the advert is still readable


@pytest.mark.parametrize("bad", [0, -1, 2**32, True, "2"])
def test_an_epoch_out_of_range_cannot_be_advertised(bad: object) -> None:
    with pytest.raises(AdvertError, match="epoch"):
        GameAd("Friday", "Ann", seats_total=4, epoch=bad)  # type: ignore[arg-type]
    assert GameAd("Friday", "Ann", seats_total=4, epoch=2**32 - 1).to_txt()["ep"] == "4294967295"


def test_a_moved_table_is_listed_once_at_its_newest_host() -> None:
    old = found("Friday", TID, 1, address="10.0.0.5")
    new = found("Friday-2", TID, 2, address="10.0.0.7")
    other = found("Chess club", "p8w2c6", 1)
    legacy = [found("Old host", None), found("Old host-2", None)]
    listed = current_tables([old, other, new, *legacy])
    assert listed == [new, other, *legacy]  # the table where its first advert was
    assert current_tables([new, old]) == [new]
    assert current_tables([]) == []


def test_on_a_tie_the_host_that_answers_wins() -> None:
    gone = found("Friday", TID, 2, reason=Unjoinable.UNREACHABLE)
    there = found("Friday-2", TID, 2, address="10.0.0.7", reason=Unjoinable.PLAYING)
    assert current_tables([gone, there]) == [there]
    assert current_tables([there, gone]) == [there]
    older_but_there = found("Friday-3", TID, 1)
    assert current_tables([older_but_there, gone]) == [gone]  # a newer epoch still wins


def test_the_json_listing_names_the_epoch_and_the_host_advertises_it() -> None:
    assert found("Friday", TID, 4).to_json()["epoch"] == 4
    assert found("Friday", None).to_json()["epoch"] == 1

    class Summary:
        seats, seats_taken, variant, phase, pin = 4, 2, "standard", Phase.PLAYING, False

    ad = ad_from_summary(Summary(), "Friday", "Bob", TID, epoch=2)  # type: ignore[arg-type]
    assert (ad.table_id, ad.epoch, ad.to_txt()["ep"]) == (TID, 2, "2")
