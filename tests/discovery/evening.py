"""A table for an evening on a virtual LAN, for the takeover tests (a test helper).

:class:`Evening` starts a headless ``sorry-lan host`` on the LAN's first machine and
``tests/discovery/board_bot.py`` laptops (the real ``sorry-lan bot``, writing down
each board it shows) on the others, each in its own network namespace with its own
data directory; it waits for moves, kills by PID, and at the end reads the journals
into a :class:`ledger.Ledger` and checks every laptop against it: the game finished,
every board each laptop showed is the journals' at that state id, each move by the
colour the journals say, in order, nobody's seat changed hands, and at most
``takeovers`` laptops took the table over.  It does not make the LAN (``netns``).
"""

from __future__ import annotations

import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from lanlaptops import MARKS as MARKS  # (re-exported: the modules built on this use it)
from ledger import Ledger, Shown, settle, shown
from netns import Agent, Machine, VirtualLan

from sorry_lan.net.journal import load

STEP = 20.0  # the longest any one step may take
DELAY = 3  # the takeover delay every host here is given (seconds)
GRACE = 20  # and the seat grace (seconds), unless a test gives --grace
BOT = "tests/discovery/board_bot.py"


@dataclass
class Evening:
    lan: VirtualLan
    data: Path
    game: str
    players: int = 3
    variant: str = "standard"
    bots: int = 0  # the host's own bots
    think: float = 0.0  # the laptops' thinking time before each move
    games: int = 1
    trace: bool = False  # the laptops trace every message (board_bot --trace)
    offset: int = 0  # laptop n runs on machine n + offset (leave machines for others)
    host_args: tuple[str, ...] = ()
    laptops: list[Agent] = field(default_factory=list)
    host: Agent | None = None
    lost_at: float | None = None

    @property
    def machines(self) -> list[Machine]:
        return self.lan.machines

    def start_host(self) -> Agent:
        args = [
            "host", "--headless", "--port", "0", "--data-dir", str(self.data / "host"),
            "--game-name", self.game, "--players", str(self.players), "--variant",
            self.variant, "--takeover-delay", str(DELAY), "--grace", str(GRACE), "--bot-delay", "0",
            "--bots", str(self.bots), *self.host_args,
        ]
        m = self.machines[0]
        self.host = self.lan.spawn(m, [sys.executable, "-m", "sorry_lan", *args],
                                   f"host@{m.address}")
        self.host.expect(lambda msg: msg.get("line", "").startswith("advertised"), STEP)
        return self.host

    def start_laptop(self, n: int, *flags: str, games: int | None = None,
                     standby_port: int | None = None, search: float = STEP) -> Agent:
        """Laptop ``n`` (from 1), on machine ``n + offset``, called ``b<n + offset>``;
        ``flags`` go to ``board_bot.py`` (``--claim MODE``, ``--forge-hand``)."""
        m, name = self.machines[n + self.offset], f"b{n + self.offset}"
        args = [
            BOT, *(["--trace"] if self.trace else []), *flags, "bot",
            "--game", self.game,
            "--name", name, "--timeout", str(search), "--moves", "--think", str(self.think),
            "--games", str(self.games if games is None else games),
            "--data-dir", str(self.data / name),
            *([] if standby_port is None else ["--standby-port", str(standby_port)]),
        ]
        agent = self.lan.spawn(m, [sys.executable, *args], f"{name}@{m.address}")
        self.laptops.append(agent)
        return agent

    def joined(self, b: Agent, within: float = STEP) -> None:
        b.expect(lambda msg: msg.get("line", "").startswith("joined "), within)

    def sit_down(self, count: int | None = None) -> list[Agent]:
        """The host and ``count`` laptops (default: every seat the host's bots leave),
        each joined."""
        if self.host is None:
            self.start_host()
        count = self.players - self.bots if count is None else count
        started = [self.start_laptop(len(self.laptops) + 1) for _ in range(count)]
        for b in started:
            self.joined(b)
        return started

    def sit_in_order(self, *flags: tuple[str, ...]) -> list[Agent]:
        """The host, and one laptop per entry of ``flags`` (its ``board_bot.py`` flags),
        each joined before the next starts: they sit in colour order (red first), and
        so in the succession order."""
        if self.host is None:
            self.start_host()
        started = []
        for laptop_flags in flags:
            started.append(self.start_laptop(len(self.laptops) + 1, *laptop_flags))
            self.joined(started[-1])
        return started

    def shown(self, b: Agent) -> Shown:
        return shown(b.stderr_text)

    def moves(self, b: Agent) -> int:
        return sum(len(v) for v in self.shown(b).moves.values())

    def wait(self, what: str, test: object, timeout: float = STEP) -> None:
        """Wait until ``test()`` is true."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if test():  # type: ignore[operator]
                return
            time.sleep(0.05)
        raise AssertionError(f"not {what} within {timeout} s\n" + self.tails())

    def wait_moves(self, at_least: int, laptops: list[Agent] | None = None,
                   timeout: float = STEP) -> None:
        group = self.laptops if laptops is None else laptops
        self.wait(f"{at_least} moves shown by each laptop",
                  lambda: all(self.moves(b) >= at_least for b in group), timeout)

    def kill_host(self) -> None:
        assert self.host is not None
        self.host.kill(signal.SIGKILL)
        self.lost_at = time.monotonic()

    def hosts(self, b: Agent) -> list[tuple[int, str]]:
        """Each new host ``b`` was told it follows (``host_changed``): epoch and name."""
        out = []
        for news in self.shown(b).news:
            kind, _pid, epoch, *name = news.split()
            if kind == "host_changed":
                out.append((int(epoch), " ".join(name)))
        return out

    def wait_followed(self, epoch: int, laptops: list[Agent], timeout: float = STEP,
                      not_: str | None = None) -> str:
        """Wait until every one of ``laptops`` follows one host (not the laptop ``not_``)
        at ``epoch`` or later (each shows it took over, or was told so): its name."""

        def last(b: Agent) -> tuple[int, str]:
            told = self.hosts(b)
            return told[-1] if told else (0, "")

        def one() -> bool:
            hosts = {last(b) for b in laptops}
            if len(hosts) != 1:
                return False
            ((at, name),) = hosts
            return at >= epoch and name != not_

        self.wait(f"every laptop following one host at epoch {epoch} or later", one, timeout)
        return last(laptops[0])[1]

    def laptop(self, name: str) -> Agent:
        """The laptop called ``name`` (b1, b2...)."""
        return next(b for b in self.laptops if b.label.startswith(f"{name}@"))

    def next_move_after_loss(self, laptops: list[Agent] | None = None) -> float:
        """Seconds from the host's death to the first move a laptop showed after it
        was told who hosts now."""
        group = self.laptops if laptops is None else laptops

        def moved_since_news(b: Agent) -> bool:
            text = b.stderr_text
            told = text.rfind("sorry-lan news: host_changed")
            return told >= 0 and "sorry-lan bot: move " in text[told:]

        self.wait("a move after the takeover",
                  lambda: any(moved_since_news(b) for b in group), DELAY + STEP)
        assert self.lost_at is not None
        return time.monotonic() - self.lost_at

    def finish(self, laptops: list[Agent] | None = None, timeout: float = 120.0) -> set[str]:
        """Every laptop's result line (its first word: the winner's colour), once each
        exited 0."""
        results = set()
        for b in self.laptops if laptops is None else laptops:
            try:
                line = b.expect(lambda msg: " won." in msg.get("line", ""), timeout)["line"]
            except AssertionError as exc:
                raise AssertionError(f"{exc}\n{self.tails()}\n{self.journals()}") from None
            status = b.wait(STEP)
            assert status == 0, f"{b.label} exited {status}\n{b.stderr_text[-3000:]}"
            results.add(str(line).split()[0])
        return results

    def successors(self) -> list[str]:
        """The laptops whose journals start a takeover (each hosted once)."""
        return sorted(
            p.relative_to(self.data).parts[0]
            for p in self.data.rglob("*.journal")
            if p.relative_to(self.data).parts[0] != "host"
            and any(r.get("k") in ("takeover", "game") for r in load(p))
        )

    def ledger(self) -> Ledger:
        others = sorted(d for d in self.data.iterdir() if d.is_dir() and d.name != "host")
        return settle(self.data / "host", others)

    def check(self, laptops: list[Agent] | None = None, takeovers: int = 1,
              late: dict[str, int] | None = None) -> Ledger:
        """The issue's checks (see the module docstring); raises with what is wrong.
        ``late``: a laptop (by label) whose first game was the table's game N."""
        led = self.ledger()
        wrong = []
        takes = [int(t["sid"]) for g in led.games for t in g.takeovers]
        for b in self.laptops if laptops is None else laptops:
            seen = self.shown(b)
            wrong += led.check(b.label, seen, first=(late or {}).get(b.label, 1))
            after = [s for boards in seen.boards.values() for s, _p in boards
                     if takes and s >= min(takes)]
            if takes and not after:
                wrong.append(f"{b.label} showed no board after the takeover at {min(takes)}")
        if not led.games or not led.games[-1].over:
            wrong.append(f"the last game did not finish: {led.journals}")
        hosted = self.successors()
        if not 1 <= len(hosted) <= takeovers:
            wrong.append(f"laptops that hosted: {hosted} (expected 1..{takeovers})")
        assert not wrong, "\n".join(wrong) + "\n" + self.tails()
        return led

    def journals(self) -> str:
        """Each journal's records, the last few of each, for failure messages."""
        out = []
        for p in sorted(self.data.rglob("*.journal")):
            records = load(p)
            kinds = [str(r.get("k")) for r in records]
            out.append(f"--- {p.relative_to(self.data)}: {len(records)} records, "
                       f"kinds {sorted(set(kinds))}, last {records[-3:]}")
        return "\n".join(out)

    def tails(self) -> str:
        agents = ([self.host] if self.host is not None else []) + self.laptops
        return "\n".join(f"--- {a.label} (exit {a.proc.poll()}):\n{a.stderr_text[-2500:]}"
                         for a in agents)
