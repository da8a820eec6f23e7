"""The real commands in a loopback-only network namespace: `sorry-lan host` advertises,
`sorry-lan list` lists, `sorry-lan bot` finds and joins without an address.

Every test body runs in a forked child inside a fresh namespace where only `lo`
exists; the commands are real subprocesses (they inherit the namespace).  The
test's own `GameBrowser` never re-probes (`reverify_interval=None`), so a game
leaving its list proves the host sent goodbye packets.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from cli_proc import CliProc, run_cli
from netns import netns_skip_reason, run_in_loopback_netns

from sorry_lan.discovery import ChangeKind, GameBrowser, GameEvent, make_zeroconf

_skip = netns_skip_reason()
pytestmark = [
    pytest.mark.netns,
    pytest.mark.lan,
    pytest.mark.skipif(_skip is not None, reason=_skip or ""),
    pytest.mark.timeout(120),  # whole games of real processes, on a loaded machine
]


async def next_event(
    events: AsyncIterator[GameEvent], pred: Callable[[GameEvent], bool], timeout: float = 8.0
) -> GameEvent:
    async with asyncio.timeout(timeout):
        async for event in events:
            if pred(event):
                return event
    raise AssertionError("event stream ended")


def seats(game: str, taken: int, total: int) -> Callable[[GameEvent], bool]:
    return lambda e: (
        e.kind is not ChangeKind.REMOVED
        and e.game.name == game
        and (e.game.seats_taken, e.game.seats_total) == (taken, total)
    )


STARTED = 30.0  # a host's first line; a loaded machine starts Python slowly


def named(game: str) -> Callable[[GameEvent], bool]:
    return lambda e: e.game.name == game


def host_args(data: str, game: str, *extra: str) -> list[str]:
    return ["host", "--headless", "--port", "0", "--data-dir", data, "--game-name", game, *extra]


def test_host_is_listed_follows_its_seats_plays_and_says_goodbye() -> None:
    async def body() -> dict[str, Any]:
        out: dict[str, Any] = {}
        zc = make_zeroconf()
        procs: list[CliProc] = []
        with tempfile.TemporaryDirectory() as data:
            try:
                async with GameBrowser(zc, reverify_interval=None) as browser:
                    events = browser.events()
                    host = await CliProc.start(
                        *host_args(data, "Loop game", "--name", "Ann", "--players", "3"),
                        "--bots",
                        "1",
                        label="host",
                    )
                    procs.append(host)
                    listening = await host.line(lambda s: s.startswith("listening on"), STARTED)
                    port = int(listening.split(":")[-1])
                    out["advertised"] = await host.line(lambda s: s.startswith("advertised"))
                    status, text, _ = await run_cli("list", "--json", "--timeout", "3")
                    out["list"] = (status, json.loads(text), port)
                    await next_event(events, seats("Loop game", 1, 3))

                    bot1 = await CliProc.start("bot", "--name", "b1", "--timeout", "10")
                    procs.append(bot1)
                    out["bot1_joined"] = await bot1.line(lambda s: s.startswith("joined"))
                    await next_event(events, seats("Loop game", 2, 3))
                    status, text, _ = await run_cli("list", "--first", "--timeout", "5")
                    out["list2"] = (status, text)

                    bot2 = await CliProc.start(
                        "bot", "--name", "b2", "--game", "LOOP GAME", "--timeout", "10"
                    )
                    procs.append(bot2)
                    out["host_status"] = await host.finish(40)
                    out["host_out"] = host.lines
                    out["host_err"] = host.err
                    out["bots"] = [
                        (await b.finish(10), b.lines[-1] if b.lines else "") for b in (bot1, bot2)
                    ]
                    gone = await next_event(events, lambda e: e.kind is ChangeKind.REMOVED, 5)
                    out["gone"] = gone.game.name
                    out["left"] = browser.games
            finally:
                for p in procs:
                    await p.stop()
                await zc.async_close()
        return out

    out = run_in_loopback_netns(body, timeout=100)
    assert out["advertised"] == "advertised on the LAN as 'Loop game' (127.0.0.1)"
    status, games, port = out["list"]
    assert status == 0 and len(games) == 1
    game = games[0]
    assert re.fullmatch(r"[0-9a-f]{16}", game["table_id"])  # the table's own id
    assert {k: game[k] for k in game if k not in ("protocol_version", "table_id")} == {
        "name": "Loop game",
        "instance": "Loop game",
        "host_player": "Ann",
        "variant": "standard",
        "seats_taken": 1,
        "seats_total": 3,
        "state": "lobby",
        "pin_required": False,
        "addresses": ["127.0.0.1"],
        "port": port,
        "address": "127.0.0.1",
        "joinable": True,
        "reason": None,
        "watchable": False,
        "epoch": 1,  # the table's first host
        "your_seat": False,
    }
    assert out["bot1_joined"] == f"joined 'Loop game' at 127.0.0.1:{port}"
    assert out["list2"] == (  # the bot b1 is this user's: its seat is theirs
        0,
        f"Loop game - host Ann - standard - 2/3 seats - your seat  (127.0.0.1:{port})",
    )
    assert out["host_status"] == 0, out["host_err"]
    over = [s for s in out["host_out"] if s.startswith("game over: ") and s.endswith(" won.")]
    assert len(over) == 1
    # Both bots played the same game to the end and report the host's result.
    assert out["bots"] == [(0, over[0].removeprefix("game over: "))] * 2
    # The liveness probes (TCP connect and close) left nothing in the host's log.
    assert out["host_err"] == []
    assert out["gone"] == "Loop game" and out["left"] == {}


def test_a_game_under_way_is_listed_as_playing_and_a_killed_bot_takes_its_seat_back() -> None:
    """The advert follows the phase; `list` says "playing - watch", or "your seat" to the
    user whose bot was killed (-9); `join` offers to watch; the bot, started again with
    no name or address, finds the table and finishes its own seat's game."""

    async def body() -> dict[str, Any]:
        out: dict[str, Any] = {}
        zc = make_zeroconf()
        procs: list[CliProc] = []
        with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as mine:
            try:
                async with GameBrowser(zc, reverify_interval=None) as browser:
                    events = browser.events()
                    host = await CliProc.start(
                        *host_args(data, "Busy", "--players", "2", "--bots", "1"),
                        "--bot-delay",
                        "0.05",
                        label="host",
                    )
                    procs.append(host)
                    line = await host.line(lambda s: s.startswith("listening on"), STARTED)
                    port = int(line.split(":")[-1])
                    bot = await CliProc.start(
                        "bot", "--name", "b1", "--think", "0.3", "--data-dir", mine
                    )
                    procs.append(bot)
                    await bot.line(lambda s: s.startswith("joined"))
                    playing = await next_event(
                        events, lambda e: e.game.name == "Busy" and e.game.state == "playing"
                    )
                    out["reason"] = playing.game.reason
                    bot.signal(signal.SIGKILL)
                    await bot.finish(5)
                    out["seat_files"] = len(list((Path(mine) / "seats").glob("*.seat")))
                    out["list_mine"] = await run_cli("list", "--timeout", "3", "--data-dir", mine)
                    out["list_json"] = await run_cli("list", "--json", "--timeout", "3")
                    out["join"] = await run_cli(
                        "join", "--text", "--name", "Zed", "--address", f"127.0.0.1:{port}"
                    )
                    out["watch"] = await run_cli(
                        "join", "--text", "--spectate", "--address", f"127.0.0.1:{port}"
                    )
                    again = await CliProc.start("bot", "--data-dir", mine, "--timeout", "10")
                    procs.append(again)
                    out["again_joined"] = await again.line(lambda s: s.startswith("joined"))
                    out["again"] = (await again.finish(40), again.lines[-1:], again.err)
                    out["host"] = (await host.finish(10), host.lines, host.err)
                    out["seat_files_after"] = list((Path(mine) / "seats").glob("*.seat"))
                    out["port"] = port
            finally:
                for p in procs:
                    await p.stop()
                await zc.async_close()
        return out

    out = run_in_loopback_netns(body, timeout=100)
    port = out["port"]
    assert out["reason"] == "playing" and out["seat_files"] == 1
    status, text, _ = out["list_mine"]
    assert status == 0 and text == (
        f"Busy - host host - standard - 2/2 seats - playing - your seat  (127.0.0.1:{port})"
    )
    status, text, _ = out["list_json"]
    (game,) = json.loads(text)
    assert (game["state"], game["joinable"], game["watchable"], game["your_seat"]) == (
        "playing",
        False,
        True,
        False,
    )
    status, _, err = out["join"]
    assert status == 1
    assert f"to watch it: sorry-lan join --spectate --address 127.0.0.1:{port}" in err
    assert err.count("has already started") == 1 and len(err.splitlines()) == 1, err
    status, text, err = out["watch"]
    assert status == 0 and f"You are watching the table at 127.0.0.1:{port}." in text, err
    assert out["again_joined"] == f"joined 'Busy' at 127.0.0.1:{port}"
    status, last, err = out["again"]
    host_status, host_out, host_err = out["host"]
    assert host_status == 0, host_err
    over = [s for s in host_out if s.startswith("game over: ")]
    assert status == 0 and last == [over[0].removeprefix("game over: ")], err
    assert out["seat_files_after"] == []  # the game ended: the seat is forgotten


def test_what_the_commands_say_with_no_table_advertised_and_hosts_stopped_by_a_signal() -> (
    None
):
    """One evening: with nothing advertised, `list` and `bot` explain the address
    fallback and a bad interface is named; hosts told not to advertise, bound to
    loopback, or whose mDNS failed are not listed (the last still serves a bot told its
    address); then a host stopped by SIGTERM and one stopped by SIGINT each say goodbye
    (a browser that never probes sees them leave) and exit 0."""

    async def body() -> dict[str, Any]:
        out: dict[str, Any] = {}
        procs: list[CliProc] = []
        zc = make_zeroconf()
        with tempfile.TemporaryDirectory() as data:
            try:
                out["nothing"] = list(
                    await asyncio.gather(
                        run_cli("list", "--timeout", "0.3"),
                        run_cli("list", "--json", "--timeout", "0.3"),
                        run_cli("bot", "--timeout", "0.3"),
                        run_cli("list", "--interface", "10.9.9.9"),
                        run_cli("list", "--interface", "bogus"),
                    )
                )
                quiet = await CliProc.start(*host_args(data, "Quiet", "--no-mdns"))
                local = await CliProc.start(*host_args(data, "Local", "--bind", "127.0.0.1"))
                broken = await CliProc.start(
                    *host_args(data, "Broken", "--interface", "10.9.9.9", "--players", "2"),
                    "--bots",
                    "1",
                )
                procs += [quiet, local, broken]
                for p in procs:  # (three start at once: on a loaded machine, slowly)
                    await p.line(lambda s: s.startswith("listening on"), STARTED)
                out["local"] = await local.line(lambda s: s.startswith("not advertised"))
                out["list"] = await run_cli("list", "--json", "--timeout", "1.5")
                # The host whose mDNS failed still serves players who know its address.
                port = broken.lines[0].rsplit(":", 1)[1]
                out["bot"] = await run_cli("bot", "--address", f"127.0.0.1:{port}", timeout=30)
                out["broken"] = (await broken.finish(10), broken.err)
                out["quiet_lines"] = quiet.lines
                async with GameBrowser(zc, reverify_interval=None) as browser:
                    events = browser.events()
                    stopping = {}
                    for sig, game in ((signal.SIGTERM, "Termed"), (signal.SIGINT, "Stopped")):
                        stopping[sig] = await CliProc.start(*host_args(data, game))
                        procs.append(stopping[sig])
                        await next_event(events, named(game), 30)
                    for sig, host in stopping.items():
                        host.signal(sig)
                        gone = await next_event(events, lambda e: e.kind is ChangeKind.REMOVED, 5)
                        out[sig.name] = (await host.finish(10), gone.game.name, host.lines,
                                         host.err)  # fmt: skip
            finally:
                for p in procs:
                    await p.stop()
                await zc.async_close()
        return out

    out = run_in_loopback_netns(body, timeout=100)
    plain, as_json, bot, no_such, bogus = out["nothing"]
    assert plain[0] == 1 and plain[2] == ""
    assert "No sorry-lan games found in 0.3 s" in plain[1]
    assert "sorry-lan join --address HOST:PORT" in plain[1]
    assert as_json[0] == 1 and json.loads(as_json[1]) == []
    assert "sorry-lan join --address HOST:PORT" in as_json[2]
    assert bot[0] == 1 and "sorry-lan bot --address HOST:PORT" in bot[2]
    assert no_such[0] == 2 and "10.9.9.9" in no_such[2]
    assert bogus[0] == 2 and "'bogus'" in bogus[2]

    assert (
        out["local"]
        == "not advertised on the LAN: bound to 127.0.0.1 (only this machine can join it)"
    )
    assert out["list"][:2] == (1, "[]")
    assert out["bot"][0] == 0 and out["bot"][1].endswith(" won.")
    status, err = out["broken"]
    assert status == 0
    assert len(err) == 1 and "not advertised on the LAN" in err[0] and "10.9.9.9" in err[0]
    assert "--address" in err[0]
    assert not any("advertis" in s for s in out["quiet_lines"])

    for sig, game in (("SIGTERM", "Termed"), ("SIGINT", "Stopped")):
        status, gone, lines, err = out[sig]
        assert (status, gone, err) == (0, game, []), sig
        # after "listening on" (its IPv6 twin, and the phones' page's address)
        assert f"advertised on the LAN as '{game}' (127.0.0.1)" in lines[1:4], sig
        assert any(line.startswith("Phones join in a browser at http://") for line in lines)
