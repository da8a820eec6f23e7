"""``sorry-lan bot`` that also writes down every board it is shown (a test tool).

Run as ``python tests/discovery/board_bot.py [FLAGS] bot ARGS...``: the real command
(the same parsing, connecting, heir and moves), with one addition: each event the
client hands the bot is looked at first, and a line goes to stderr for each board and
hand the seat is shown, so a test can compare them with the journals at every state id:

    sorry-lan board: <sid> <pawns as JSON>            (a snapshot, or after each move)
    sorry-lan hand: <sid> <cards as JSON>             (play for points: the seat's hand)
    sorry-lan news: <kind> <pid> <epoch> <text>      (who hosts changed, or a refused claim)
    sorry-lan error: <reason> <text>                 (the host refused something)

The board is kept the way a client keeps it: the snapshot's pawns, then each
``events`` message applied (``wire.apply.apply_events``).  The network's info log
lines go to stderr too (``sorry-lan log:``); SIGUSR1 prints the asyncio tasks and
SIGUSR2 every thread's stack (a laptop that stopped answering).  FLAGS, before
``bot``: ``--trace`` (every message each client gets and sends, each host input's
effects, an election that keeps waking for nothing), ``--claim MODE`` and
``--forge-hand`` (a hostile laptop: see ``hostile.py``).  Without flags it does not
change what the bot plays or prints.
"""

from __future__ import annotations

import asyncio
import faulthandler
import json
import logging
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

import hostile

from sorry_lan import cli
from sorry_lan.client.model import ClientModel, TableNews
from sorry_lan.commands import bot as bot_command
from sorry_lan.net import botrunner
from sorry_lan.net.client import GameClient
from sorry_lan.wire import messages as m
from sorry_lan.wire.apply import apply_events

_run_bot = botrunner.run_bot


def _say(kind: str, *words: object) -> None:
    if kind == "trace":  # (when: the monotonic clock, the same in every namespace)
        words = (f"{time.monotonic():.3f}", *words)
    print(f"sorry-lan {kind}: " + " ".join(str(w) for w in words), file=sys.stderr, flush=True)


def watch(client: GameClient) -> None:
    """Write down what ``client`` shows its seat, as each event is taken from it."""
    taken: Callable[[], Any] = client.next_event
    board: list[tuple[int, ...] | None] = [None]
    hand: list[object] = [None]
    if client.model.snapshot is not None:  # welcomed before the bot began reading
        board[0] = tuple(client.model.snapshot.pawns)

    hostile.CLIENTS.append(client)

    async def next_event() -> Any:
        ev = await taken()
        model = client.model
        if isinstance(ev, m.Error):
            _say("error", ev.reason.value, ev.text)
        if isinstance(ev, m.Snapshot):
            board[0] = tuple(ev.pawns)
            _say("board", ev.sid, json.dumps(list(ev.pawns)))
        elif isinstance(ev, m.Events) and board[0] is not None:
            board[0] = apply_events(board[0], ev.events)
            _say("board", ev.sid, json.dumps(list(board[0])))
        elif isinstance(ev, TableNews):
            _say("news", ev.kind, ev.pid, ev.epoch, ev.text or ev.name or "")
        if model.hand is not None and [int(c) for c in model.hand] != hand[0]:
            hand[0] = [int(c) for c in model.hand]
            sid = model.turn.sid if model.turn is not None else -1
            _say("hand", sid, json.dumps(hand[0]))
        return ev

    client.next_event = next_event  # type: ignore[method-assign]


def dump_tasks() -> None:
    """Every asyncio task of this process and where it waits, on stderr (SIGUSR1)."""
    for task in asyncio.all_tasks():
        _say("task", task.get_name(), repr(task.get_coro())[:120])
        task.print_stack(limit=8, file=sys.stderr)


async def run_bot(client: GameClient, *args: Any, **kwargs: Any) -> Any:
    watch(client)
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, dump_tasks)
    return await _run_bot(client, *args, **kwargs)


def log_the_network() -> None:
    """The client's and the heir's info lines on stderr too (``sorry-lan log:``), for a
    failing test to show why a laptop did what it did."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("sorry-lan log: %(name)s: %(message)s"))
    for name in ("sorry_lan.net", "sorry_lan.succession", "sorry_lan.authority"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.INFO)
        logger.addHandler(handler)


class _TraceHandler(logging.Handler):
    """The heir's debug lines (each election decision carried out) as trace lines."""

    def emit(self, record: logging.LogRecord) -> None:
        _say("trace", f"heir: {record.getMessage()}"[:400])


def trace_the_client() -> None:
    """Every message each of this process's clients gets and sends, and each election
    decision taken, on stderr (``sorry-lan trace:``): for debugging a test."""
    received, sent, taken = (
        ClientModel.receive_data, ClientModel.send, ClientModel.take_decisions)

    def receive_data(self: ClientModel, data: bytes, now: float) -> list[Any]:
        events = received(self, data, now)
        _say("trace", f"pid {self.pid} epoch {self.epoch} got", *(
            type(e).__name__ + (f"@{e.sid}" if hasattr(e, "sid") else "") for e in events))
        return events

    def send(self: ClientModel, msg: m.Message) -> None:
        _say("trace", f"pid {self.pid} sends", repr(msg)[:160])
        sent(self, msg)

    def take_decisions(self: ClientModel) -> list[Any]:
        out = taken(self)
        if out:
            _say("trace", f"pid {self.pid} decides", *out)
        return out

    from sorry_lan.authority.core import HostCore

    def core(name: str) -> None:
        real = getattr(HostCore, name)

        def traced(self: HostCore, cid: int, *args: Any) -> Any:
            effects = real(self, cid, *args)
            if name != "received" or any(type(e).__name__ != "Send" for e in effects):
                _say("trace", f"host {name} {cid} {args[0][:48]!r} paused={self.paused}", *(
                    f"Send({e.cid},{e.data[:24]!r})" if type(e).__name__ == "Send"
                    else type(e).__name__ for e in effects))
            return effects

        setattr(HostCore, name, traced)

    for name in ("opened", "received", "closed"):
        core(name)
    from sorry_lan.net.heir import Heir
    from sorry_lan.succession.election import Election

    heir_log = logging.getLogger("sorry_lan.net.heir")  # each decision carried out
    heir_log.setLevel(logging.DEBUG)
    heir_log.addHandler(_TraceHandler())
    heir_log.propagate = False
    from sorry_lan.net.standby import StandbyListener

    answer = StandbyListener._answer

    def answered(self: StandbyListener, greeter: Any, greeting: Any) -> Any:
        out = answer(self, greeter, greeting)
        _say("trace", f"standby answers {type(greeting).__name__}: {out}")
        return out

    StandbyListener._answer = answered  # type: ignore[method-assign]

    spins = [0]
    ticked = Election.tick

    def tick(self: Election, now: float) -> list[Any]:
        out = ticked(self, now)
        wake = self.wake_at
        if wake is not None and wake <= now:
            spins[0] += 1
            if spins[0] in (1, 2, 1000):
                _say("trace", f"election spins: phase {self.phase} wake {wake - now:.3f}",
                     f"retry_at {self._retry_at} attempt {self._attempt} voted {self._voted}",
                     f"failed {self._failed} reached {self._reached} out {out}")
        return out

    Election.tick = tick  # type: ignore[method-assign]
    _ = Heir
    ClientModel.receive_data = receive_data  # type: ignore[method-assign]
    ClientModel.send = send  # type: ignore[method-assign]
    ClientModel.take_decisions = take_decisions  # type: ignore[method-assign]


if __name__ == "__main__":
    setattr(bot_command, "run_bot", run_bot)  # noqa: B010 (the command's own name for it)
    log_the_network()
    faulthandler.register(signal.SIGUSR2, all_threads=True)  # stacks, even of a stuck loop
    argv = sys.argv[1:]
    while argv and argv[0] in ("--trace", "--claim", "--forge-hand"):
        flag = argv.pop(0)
        if flag == "--trace":
            trace_the_client()
        elif flag == "--claim":
            hostile.claim(argv.pop(0))
        else:
            hostile.forge_hand()
    sys.exit(cli.main(argv))
