"""Trading colours under any order of lobby requests: seeded random evenings of asks,
answers, colour changes, readiness, bots added and removed, players lost and back, on
the host core (the pair's fake clock).  After every step the table holds what SPEC
``swap`` promises: no two players share a colour, each player takes part in at most
one ask, an ask joins two players both still at the table and connected (the asked
one a person), and every connected player's last ``lobby`` lists the asks the table
keeps.  Nothing a request does ends a connection."""

from __future__ import annotations

import random

import pytest
from pair import Pair, SessionClient

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules.board import Colour
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError

QUIET = HostOptions(heartbeat=1000.0, dead_after=5000.0)
NAMES = ("ann", "bob", "cat", "dan")
STEPS = 250


class Evening:
    """Four people at a four-seat table (ann owns it), and who is connected."""

    def __init__(self) -> None:
        table = Table(TableConfig(seats=4, seed=3, grace=10_000.0))
        owner, token = table.join(None, "ann")
        table.owner = owner.pid
        self.table = table
        self.pair = Pair(table, QUIET)
        self.cids: dict[str, int] = {}
        self.clients: dict[str, SessionClient] = {}
        self.tokens: dict[str, bytes | None] = {"ann": token}
        for name in NAMES:
            self.arrive(name)

    def arrive(self, name: str) -> None:
        cid, client = self.pair.join(name, token=self.tokens.get(name))
        self.cids[name], self.clients[name] = cid, client
        self.tokens[name] = client.token

    def leave(self, name: str) -> None:
        self.pair.lose(self.cids.pop(name))
        del self.clients[name]

    def send(self, name: str, msg: m.Message) -> None:
        try:
            self.clients[name].send(msg)
        except LocalProtocolError:
            return  # (the client's own session would not send it now)
        self.pair.pump()


def step(ev: Evening, rng: random.Random) -> None:
    """One random request, or a player lost or back."""
    here = sorted(ev.clients)
    away = [n for n in NAMES if n not in ev.clients]
    pids = [*ev.table.players, None, 200]
    kind = rng.choice(("ask", "ask", "answer", "answer", "colour", "ready", "bot", "away"))
    if kind == "away" and away and rng.random() < 0.6:
        ev.arrive(rng.choice(away))
        ev.pair.pump()
    elif kind == "away" and len(here) > 1:
        ev.leave(rng.choice([n for n in here if n != "ann"] or here))
    elif kind == "ask":
        ev.send(rng.choice(here), m.AskSwap(pid=rng.choice(pids)))
    elif kind == "answer":
        by_pid = {ev.clients[n].pid: n for n in here}
        waiting = [(a, by_pid[b]) for a, b in ev.table.swaps.items() if b in by_pid]
        if waiting and rng.random() < 0.7:  # the asked one answers its ask, mostly
            pid, name = rng.choice(waiting)
        else:  # or anyone answers anything
            pid, name = rng.choice([p for p in pids if p is not None]), rng.choice(here)
        ev.send(name, m.AnswerSwap(pid=pid, accept=rng.random() < 0.6))
    elif kind == "colour":
        ev.send(rng.choice(here), m.ChooseColour(colour=Colour(rng.randrange(4))))
    elif kind == "ready":
        ev.send(rng.choice(here), m.Ready(ready=rng.random() < 0.3))
    elif "ann" in ev.clients:  # the owner seats a bot, or takes one away
        bots = [p.pid for p in ev.table.players.values() if p.bot]
        if bots and rng.random() < 0.5:
            ev.send("ann", m.RemoveBot(pid=rng.choice(bots)))
        else:
            ev.send("ann", m.AddBot(colour=None, level=None))


def check(ev: Evening) -> None:
    players = ev.table.players
    colours = [p.colour for p in players.values()]
    assert len(colours) == len(set(colours)), colours
    asks = dict(ev.table.swaps)
    taking_part = [pid for pair in asks.items() for pid in pair]
    assert len(taking_part) == len(set(taking_part)), asks
    for asker, asked in asks.items():
        assert asker != asked and asker in players and asked in players, asks
        assert not players[asked].bot, asks
        assert players[asker].conn is not None and players[asked].conn is not None, asks
    for name, client in ev.clients.items():
        assert ev.cids[name] in ev.pair.open, f"{name}'s connection was ended"
        assert set(client.last(m.Lobby).swaps or ()) == set(asks.items()), name


@pytest.mark.parametrize("seed", range(12))
def test_any_order_of_lobby_requests_keeps_colours_and_asks_whole(seed: int) -> None:
    rng = random.Random(seed)
    ev = Evening()
    traded = 0
    for _ in range(STEPS):
        before = {p.pid: p.colour for p in ev.table.players.values()}
        step(ev, rng)
        check(ev)
        after = {p.pid: p.colour for p in ev.table.players.values()}
        moved = [pid for pid in before if pid in after and before[pid] != after[pid]]
        traded += len(moved) == 2 and sorted(before[p] for p in moved) == sorted(
            after[p] for p in moved
        )
    assert traded > 0  # (the evening did trade colours, not only refuse)
