"""SeatStore on disk, and GameClient keeping its seat there across processes."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from netkit import LOCAL, start_host

from sorry_lan.net.botrunner import run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.seats import LEFTOVER_AGE, SEAT_MAX_AGE, SeatStore

TOKEN = bytes(range(16))
OTHER = bytes(range(1, 17))


def test_a_seat_is_kept_found_by_any_of_its_addresses_and_forgotten(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats")
    assert store.seats() == [] and store.choose(["10.0.0.5"], 47474, None) is None
    assert store.save("Bob", TOKEN, ["box.local", "10.0.0.5"], 47474)
    assert store.save("Ann", OTHER, ["10.0.0.5"], 47474, game="Friday")
    (bob,) = store.find(["10.0.0.5"], 47474, name="BOB")
    assert bob.token == TOKEN and bob.name == "Bob"
    assert store.find(["box.local"], 47474, name="bob") == [bob]
    assert store.find(["10.0.0.5"], 47475) == []  # another port is another table
    assert store.find(["10.0.0.9"], 47474, game="Friday", name="Ann")[0].token == OTHER
    assert store.choose(["10.0.0.5"], 47474, None) is None  # two seats there: say which
    assert store.choose(["box.local"], 47474, None) == bob  # only Bob's is known by that name
    assert "token" not in repr(bob) and TOKEN.hex() not in repr(bob)
    if sys.platform != "win32":
        assert stat.S_IMODE(os.stat(tmp_path / "seats").st_mode) == 0o700
        assert stat.S_IMODE(os.stat(bob.path).st_mode) == 0o600
    # A new token for the same seat name replaces the old file.
    assert store.save("Bob", OTHER[::-1], ["10.0.0.5"], 47474)
    assert [s.token for s in store.find(["10.0.0.5"], 47474, name="Bob")] == [OTHER[::-1]]
    store.forget(OTHER)
    assert [s.name for s in store.seats()] == ["Bob"]


def test_a_seat_keeps_the_highest_epoch_it_followed(tmp_path: Path) -> None:
    """A restarted laptop follows no host older than the one its seat followed: the
    file keeps the epoch and its host's seat, and never goes back to an older one."""
    store = SeatStore(tmp_path / "seats")
    assert store.save("Bob", TOKEN, ["10.0.0.5"], 47474, table="kitchen7")
    assert store.seats()[0].epoch is None
    assert store.save("Bob", TOKEN, ["10.0.0.5"], 47474, table="kitchen7", epoch=2, host=3)
    (seat,) = SeatStore(tmp_path / "seats").seats()
    assert (seat.table, seat.epoch, seat.host) == ("kitchen7", 2, 3)
    assert store.save("Bob", TOKEN, ["10.0.0.5"], 47474, table="kitchen7", epoch=1, host=0)
    (seat,) = SeatStore(tmp_path / "seats").seats()
    assert (seat.epoch, seat.host) == (2, 3)


def test_a_seat_keeps_each_laptops_standby_port(tmp_path: Path) -> None:
    """A restarted laptop follows a seat hosting a newer epoch only on the port its
    standby offered (SPEC 13): the file keeps each laptop's, by pid, the latest
    offered winning, and one no longer in the order is not forgotten."""
    store = SeatStore(tmp_path / "seats")
    assert store.save("Bob", TOKEN, ["10.0.0.5"], 47474, table="kitchen7", epoch=1,
                      host=0, standbys=[(1, 7001), (2, 7002)])
    (seat,) = SeatStore(tmp_path / "seats").seats()
    assert seat.standbys == ((1, 7001), (2, 7002))
    assert store.save("Bob", TOKEN, ["10.0.0.5"], 47474, table="kitchen7", epoch=2,
                      host=1, standbys=[(2, 7102)])
    (seat,) = SeatStore(tmp_path / "seats").seats()
    assert seat.standbys == ((1, 7001), (2, 7102))


@dataclass(frozen=True)
class _Found:
    """A table as discovery lists it (the fields seats match on)."""

    address: str | None
    addresses: tuple[str, ...]
    port: int
    instance: str
    table_id: str | None


def test_a_seat_belongs_to_its_tables_id_not_to_its_address(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats")
    assert store.save("Bob", TOKEN, ["10.0.0.5"], 47474, game="Friday", table="aaaa1111")
    here = ("10.0.0.5", ("10.0.0.5",), 47474, "Friday")
    assert store.at_game(_Found(*here, "aaaa1111")) is not None
    # A new table at the same address, port and name is not "your seat".
    assert store.at_game(_Found(*here, "bbbb2222")) is None
    assert store.choose(["10.0.0.5"], 47474, "Bob", table="bbbb2222") is None
    # The same table resumed on another port (and found by another address) still is.
    assert store.at_game(_Found("10.0.0.7", ("10.0.0.7",), 5000, "Friday", "aaaa1111"))
    # An older host (no id advertised): the address and port decide, as before.
    assert store.at_game(_Found(*here, None)) is not None
    # A seat kept before ids (or joined by address alone) matches by address too.
    assert store.save("Ann", OTHER, ["10.0.0.6"], 47474)
    assert store.at_game(_Found("10.0.0.6", (), 47474, "Den", "cccc3333")) is not None
    # Reconnecting by address alone keeps the id the seat was saved with.
    assert store.save("Bob", TOKEN, ["box.local"], 47474)
    (bob,) = store.find(["box.local"], 47474, name="Bob")
    assert bob.table == "aaaa1111" and set(bob.addresses) == {"10.0.0.5", "box.local"}


def test_damaged_and_foreign_files_are_never_offered(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    store.save("Bob", TOKEN, ["10.0.0.5"], 47474)
    (tmp_path / "junk.seat").write_text("{not json")
    (tmp_path / "short.seat").write_text(
        '{"v": 1, "name": "Eve", "token": "00", "port": 47474, "addresses": ["10.0.0.5"],'
        ' "game": null, "saved": 1}'
    )
    assert [s.name for s in store.seats()] == ["Bob"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        (bob,) = store.seats()
        os.chown(bob.path, 12345, 12345)  # as if another user planted it
        assert store.seats() == []


def test_a_temporary_file_left_by_a_killed_save_is_swept_once_old(tmp_path: Path) -> None:
    """A process killed between writing a seat's temporary file and renaming it leaves
    the temporary behind: it is never read as a seat, and it is removed once it is too
    old to belong to a save still under way."""
    store = SeatStore(tmp_path)
    store.save("Bob", TOKEN, ["10.0.0.5"], 47474)
    (bob,) = store.seats()
    fresh = tmp_path / f".{bob.path.name}.abc123.tmp"
    old = tmp_path / f".{bob.path.name}.def456.tmp"
    for leftover in (fresh, old):
        leftover.write_text('{"half": ')
    when = time.time() - LEFTOVER_AGE - 5
    os.utime(old, (when, when))
    assert [s.name for s in store.seats()] == ["Bob"]
    assert fresh.exists() and not old.exists()


def test_a_seat_unused_for_a_month_is_forgotten(tmp_path: Path) -> None:
    """The host of a game that never ended may be gone for good: its seat is not kept
    (nor marked, nor offered) for ever."""
    store = SeatStore(tmp_path)
    store.save("Bob", TOKEN, ["10.0.0.5"], 47474)
    store.save("Ann", OTHER, ["10.0.0.6"], 47474)
    (ann,) = store.find(["10.0.0.6"], 47474)
    month = time.time() - SEAT_MAX_AGE - 60
    record = json.loads(ann.path.read_text())
    record["saved"] = month  # as if last used a month ago
    ann.path.write_text(json.dumps(record))
    assert [s.name for s in store.seats()] == ["Bob"]
    assert not ann.path.exists()
    assert store.choose(["10.0.0.6"], 47474, "Ann") is None
    # Rejoining refreshes a seat: it is kept a month from its last use.
    store.save("Bob", TOKEN, ["10.0.0.5"], 47474)
    (bob,) = store.seats()
    assert bob.saved > time.time() - 60


def test_an_unwritable_store_only_loses_rejoining(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    store = SeatStore(blocker / "seats")
    assert not store.save("Bob", TOKEN, ["h"], 1)
    assert isinstance(store.failure, OSError)
    seat = store.choose(["h"], 1, None)  # this process still has it, in memory
    assert seat is not None and seat.token == TOKEN and seat.name == "Bob"
    assert SeatStore(blocker / "seats").seats() == []  # another process does not
    store.forget(TOKEN)
    assert store.seats() == []


@pytest.mark.asyncio
@pytest.mark.parametrize("how", ["killed", "quit", "unwritable"])
async def test_a_new_process_takes_its_seat_back_mid_game_until_the_game_ends(
    tmp_path: Path, how: str
) -> None:
    """(``unwritable``: the data dir is a file, nothing can be written under it; the
    player is told at join, and a new connection from the same process takes the seat
    back from the token kept in memory.)"""
    blocker = tmp_path / "file"
    blocker.write_text("")
    store = SeatStore(blocker / "seats" if how == "unwritable" else tmp_path)
    server = await start_host(seats=2, bots=1, bot_delay=0.01, grace=30.0)
    port = server.address[1]
    first = GameClient(LOCAL, port, "Bob", ClientOptions(seats=store))
    second: GameClient | None = None
    try:
        await first.connect()
        said = first.seat_not_kept
        if how == "unwritable":
            assert said is not None and str(said) == (
                f"your seat cannot be kept on this machine ({blocker / 'seats'}: "
                f"{store.failure and store.failure.strerror}): if this program stops, it "
                "cannot take the seat back"
            )
        else:
            assert said is None
        playing = asyncio.create_task(run_bot(first))
        while server.table.game is None or server.table.game.moves_played < 6:
            await asyncio.sleep(0.01)
        (seat,) = store.seats()
        assert seat.name == "Bob" and seat.token == first.model.token
        if how != "quit":
            first.abort()  # the process died (the connection did) without a word
        playing.cancel()
        await first.close()  # "q" then "y": bye, and the seat waits (a bot plays it)
        second = GameClient(LOCAL, port, "Bob", ClientOptions(seats=store))
        welcome = await second.connect()
        assert welcome.pid == first.model.pid and second.model.colour == first.model.colour
        over = await asyncio.wait_for(run_bot(second), 30)
        assert over is not None and server.table.game is not None and server.table.game.over
        assert store.seats() == []  # the game ended: nothing to come back to
    finally:
        for c in (first, second):
            if c is not None:
                await c.close()
        await server.close()


@pytest.mark.asyncio
async def test_a_token_the_host_does_not_know_is_forgotten_and_a_new_seat_taken(
    tmp_path: Path,
) -> None:
    store = SeatStore(tmp_path)
    server = await start_host(seats=3)
    port = server.address[1]
    store.save("Bob", TOKEN, [LOCAL], port)  # from another table that used this port
    bob = GameClient(LOCAL, port, "Bob", ClientOptions(seats=store))
    try:
        await bob.connect()
        assert bob.model.token is not None and bob.model.token != TOKEN
        assert [s.token for s in store.seats()] == [bob.model.token]
        await bob.close()  # leaving the lobby gives the seat up: nothing kept
        assert store.seats() == []
    finally:
        await bob.close()
        await server.close()


@pytest.mark.asyncio
async def test_a_client_keeps_the_tables_id_with_its_seat_and_offers_none_elsewhere(
    tmp_path: Path,
) -> None:
    store = SeatStore(tmp_path)
    server = await start_host(seats=3)
    port = server.address[1]
    store.save("Bob", TOKEN, [LOCAL], port, table="aaaa1111")  # another table, same port
    bob = GameClient(LOCAL, port, "Bob", ClientOptions(seats=store, table_id="bbbb2222"))
    try:
        await bob.connect()
        assert bob.model.token is not None and bob.model.token != TOKEN
        mine = store.find([LOCAL], port, name="Bob", table="bbbb2222")
        assert [(s.token, s.table) for s in mine] == [(bob.model.token, "bbbb2222")]
        old = store.find([LOCAL], port, name="Bob", table="aaaa1111")
        assert [s.token for s in old] == [TOKEN]  # that table's seat is left for it
    finally:
        await bob.close()
        await server.close()
