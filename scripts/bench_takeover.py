#!/usr/bin/env python3
"""Takeover benchmark on a virtual LAN (issues 19, 31; needs root; never touches real NICs).

Builds four bridged network namespaces (see tests/discovery/netns.py): one machine
runs the real ``sorry-lan host --headless --players 3 --takeover-delay D --grace G``,
the other three a ``sorry-lan bot --moves`` each (found by mDNS).  Each run lets the
game go a few moves, then does one fault (``--fault``, round-robin over the runs with
``all``):

- ``kill``: the host SIGKILLed;
- ``stop``: the host SIGSTOPped for D + 12 s, then SIGCONT: it must step down (say
  where the table went and exit 0);
- ``linkdown``: the host's eth0 down for D + 12 s (less than G), then up: the same;
- ``cutoff``: a non-host laptop's cable off the bridge, its interface up, for
  D + G + 5 s, then back: no laptop may take over; it must play on at the same
  host.  When the cut-off player was on turn the table waits for it (its seat is
  held G, by design): such a run is counted as "waited", its time left out.

It measures, from outside: the time from the fault to the next move a connected bot
showed (for ``cutoff`` the next move at the live host, about the bots' think time);
the moves lost (a move a bot showed that no journal kept, ``lanlaptops.check_game``'s
rule, counted); second tables (two journals at one epoch, an old host that journalled
more than the one move in flight after its successor's takeover state, or with
``cutoff`` any takeover at all); and the runs that did not recover (no move after the
fault; with ``stop``/``linkdown`` the old host that did not step down; with
``cutoff`` the laptop that did not play on).  It prints each run, then per fault and
overall: runs, moves lost, second tables, not recovered, next move p50/p95/max.

With ``--finish`` each run then plays its game to the end and sets the laptops side by
side as ``sorry-lan games`` reads their data directories (issue 32, ``tests/sim/kept.py``):
every bot that saw the end must list the game once, whole, with the same figures and
scoreboard as the others, and a host that stepped down (``stop``, ``linkdown``) or was
killed must list no finished game the others do not (a phantom result).  It prints the
laptops x games that disagree.

It does not judge the product (the LAN tests do) and changes nothing of it.

Usage: sudo python3 scripts/bench_takeover.py [--runs 52] [--delay 3|default]
       [--grace G|default] [--fault kill|stop|linkdown|cutoff|all] [--log FILE]
       [--finish]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import importlib
import itertools
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "discovery"))
sys.path.insert(0, str(REPO / "tests"))
netns: Any = importlib.import_module("netns")
laptops: Any = importlib.import_module("lanlaptops")  # the LAN tests' laptops and journals
timings: Any = importlib.import_module("sorry_lan.authority.timings")
journal: Any = importlib.import_module("sorry_lan.net.journal")
kept: Any = importlib.import_module("sim.kept")  # what each laptop lists, side by side

STEP = 20.0
FAULTS = ("kill", "stop", "linkdown", "cutoff")
#: Moves a bot shows less than this long after a host fault were in flight before it
#: (no bot thinks this little): the next move is the first one after.
IN_FLIGHT = 0.2


class Watch:
    """The moves one bot showed, each with when this process first saw its line."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.read = 0
        self.moves: list[tuple[float, int, str]] = []  # (monotonic time, state id, colour)

    def poll(self) -> None:
        lines = agent_lines(self.agent)
        now = time.monotonic()
        for text in lines[self.read:]:
            found = laptops.MOVE.search(text)
            if found:
                self.moves.append((now, int(found.group(1)), found.group(2)))
        self.read = len(lines)

    def first_after(self, t: float) -> float | None:
        return next((at for at, _sid, _colour in self.moves if at > t), None)

    def colour_after(self, t: float) -> str | None:
        """The colour of the first move shown after ``t``."""
        return next((colour for at, _sid, colour in self.moves if at > t), None)

    def seat(self) -> str | None:
        """The colour this bot plays."""
        found = laptops.BEGINS.search("".join(agent_lines(self.agent)))
        return None if found is None else str(found.group(1))


def agent_lines(agent: Any) -> list[str]:
    """The stderr lines the agent wrote so far (a copy; its reader thread appends)."""
    return list(agent._stderr)


@dataclass
class Run:
    fault: str
    took: float | None = None
    lost: int = 0
    second: int = 0
    recovered: bool = True
    waited: bool = False  # cutoff: the cut-off player was on turn, the table waited
    notes: list[str] = field(default_factory=list)
    pairs: int = 0  # --finish: laptops x games set side by side
    disagree: int = 0  # of them, listed otherwise than the others (or a phantom)


def lost_moves(bots: list[Any], data: Path) -> int:
    """Moves some bot showed that no journal kept (each shown move must follow a kept
    move's state, a different kept move each): ``lanlaptops.check_game``'s rule, counted
    instead of asserted.  The bots are read before the journals (a move is journalled
    before it is shown)."""
    shown = [laptops.moves_of(b) for b in bots]
    settled = [answered for answered, _colour in laptops.chain(data)]
    lost = set()
    for moves in shown:
        last = -1
        for sid, _colour in moves:
            at = max((i for i, answered in enumerate(settled) if answered < sid), default=-1)
            if at <= last:
                lost.add(sid)
            else:
                last = at
    return len(lost)


def journals(data: Path) -> list[tuple[int, str, list[dict[str, Any]]]]:
    """Every journal under ``data``: (its epoch, its laptop's dir, its records), by epoch."""
    out = []
    for path in data.rglob("*.journal"):
        records = journal.load(path)
        take = next((r for r in records if r.get("k") == "takeover"), None)
        epoch = 1 if take is None else int(take["epoch"])
        out.append((epoch, path.relative_to(data).parts[0], records))
    return sorted(out, key=lambda j: j[0])


def second_tables(data: Path, fault: str) -> tuple[int, list[str]]:
    """How many times two hosts accepted moves of the game at once, and why."""
    found = journals(data)
    why = []
    twice = [e for e, n in collections.Counter(e for e, _d, _r in found).items() if n > 1]
    for e in twice:
        why.append(f"two journals at epoch {e}: "
                   f"{[d for x, d, _r in found if x == e]}")
    if fault == "cutoff" and len(found) > 1:
        why.append(f"a takeover while the host lived: {[(e, d) for e, d, _r in found]}")
    for (_e, old, records), (_n, new, nxt) in itertools.pairwise(found):
        take = next(r for r in nxt if r.get("k") == "takeover")
        late = [r for r in records if r.get("k") == "move" and int(r["sid"]) >= int(take["sid"])]
        if len(late) > 1:
            why.append(f"{old} journalled {len(late)} moves at or after {new}'s takeover "
                       f"state {take['sid']}")
    return len(why), why


def summary(data: Path) -> str:
    """The journals in a line: laptop, epoch, moves, last record kind."""
    return "; ".join(
        f"{d}@{e}: {sum(r.get('k') == 'move' for r in rs)} moves, last {rs[-1].get('k')}"
        for e, d, rs in journals(data)
    )


def next_move(watches: list[Watch], after: float, until: float) -> float | None:
    """Seconds from ``after`` to the first move one of ``watches`` showed, waiting
    until ``until`` (monotonic) at most."""
    while True:
        for w in watches:
            w.poll()
        seen = [t for w in watches if (t := w.first_after(after)) is not None]
        if seen:
            return min(seen) - after
        if time.monotonic() > until:
            return None
        time.sleep(0.01)


def one_run(lan: Any, args: argparse.Namespace, fault: str, index: int) -> Run:
    """One fault and what came of it."""
    run = Run(fault)
    delay, grace = args.delay, args.grace
    m0, *others = lan.machines
    away_m = others[index % len(others)]
    game = f"Bench{index}"
    with tempfile.TemporaryDirectory(prefix=f"bench-takeover-{index}-") as where:
        data = Path(where)
        host = laptops.host(lan, m0, data / "host", game, "--players", "3",
                            "--takeover-delay", f"{delay:g}", "--grace", f"{grace:g}")
        bots: list[Any] = []
        try:
            host.expect(lambda msg: msg.get("line", "").startswith("advertised"), STEP)
            bots = [laptops.bot(lan, m, data, game, f"b{i}", "--think", f"{args.think:g}")
                    for i, m in enumerate(others, 1)]
            watches = [Watch(b) for b in bots]
            deadline = time.monotonic() + STEP * 2
            while min(len(laptops.moves_of(b)) for b in bots) < 6:
                if time.monotonic() > deadline:
                    run.recovered = False
                    run.notes.append("the game did not start")
                    return run
                time.sleep(0.05)
            for w in watches:
                w.poll()
            if fault == "cutoff":
                cutoff_run(lan, run, watches, away_m, others.index(away_m), delay, grace)
            else:
                host_run(lan, run, host, watches, m0, fault, delay)
            # one more move for each bot still on, then count
            settle = time.monotonic()
            for w in watches:
                if w.agent.proc.poll() is None and next_move([w], settle, settle + STEP) is None:
                    run.notes.append(f"{w.agent.label}: no move after the run")
            if args.finish:
                finish(run, bots, data, fault)
            run.lost = lost_moves(bots, data)
            run.second, why = second_tables(data, fault)
            run.notes += why
            takeovers = len(laptops.successors(data))
            expected = 0 if fault == "cutoff" else 1
            if takeovers != expected:
                run.notes.append(f"{takeovers} takeovers: {laptops.successors(data)}")
            if run.lost or run.second or not run.recovered or run.notes:
                run.notes.append(f"journals: {summary(data)}")
                if args.log is not None:
                    with args.log.open("a") as log:
                        log.write(f"=== run {index + 1} ({fault}) ===\n")
                        log.write("\n".join(run.notes) + "\n")
                        for a in [host, *bots]:
                            log.write(f"--- {a.label} stderr (tail)\n")
                            log.write("".join(agent_lines(a)[-40:]))
            return run
        except AssertionError as exc:
            run.recovered = False
            run.notes.append(f"failed: {str(exc).splitlines()[0]}")
            return run
        finally:
            with contextlib.suppress(Exception):
                laptops.link_up(m0)
            with contextlib.suppress(Exception):
                laptops.reconnect(lan, away_m)
            lan.close_agents()


def finish(run: Run, bots: list[Any], data: Path, fault: str) -> None:
    """The game played to its end; then what each laptop lists of it, side by side:
    the bots that saw the end agree on each game, and the first host (killed, or stepped
    down) lists no finished game that they do not."""
    ended = []
    for b in bots:
        try:
            laptops.finished(b, 240)
            ended.append(b.label.split("@")[0])  # (its label: name@address)
        except Exception as exc:  # (a bot that never saw the end is a note, not a crash)
            run.notes.append(f"{b.label} did not see the end: {str(exc).splitlines()[0]}")
    views = {name: kept.seen(data / name) for name in ended}
    for name, view in views.items():
        if not view.rows:
            files = sorted(str(f.relative_to(data)) for f in (data / name).rglob("*"))
            run.notes.append(f"{name} lists no finished game; it keeps {files}")
    if not views:
        return
    first = next(iter(views.values()))
    for view in views.values():
        run.pairs += max(len(view.rows), len(first.rows))
        if view.rows != first.rows or view.stats != first.stats:
            run.disagree += max(len(view.rows), len(first.rows))
    run.notes += kept.differ(views)
    if fault != "cutoff":
        try:
            old = kept.seen(data / "host")
        except AssertionError as exc:  # (what the listing noted of its journal)
            run.notes.append(f"the first host's games: {exc}")
            return
        phantom = [r for r in old.rows if r not in first.rows]
        run.pairs += 1
        if phantom:
            run.disagree += 1
            run.notes.append(f"the first host lists a game nobody else does: {phantom}")


def host_run(
    lan: Any, run: Run, host: Any, watches: list[Watch], m0: Any, fault: str, delay: float
) -> None:
    """The host lost by ``fault``; with ``stop`` and ``linkdown`` back after D + 12 s,
    then it must step down."""
    if fault == "kill":
        host.kill(signal.SIGKILL)
    elif fault == "stop":
        host.kill(signal.SIGSTOP)
    else:
        laptops.link_down(m0)
    lost_at = time.monotonic()
    took = next_move(watches, lost_at + IN_FLIGHT, lost_at + delay + 30)
    run.took = None if took is None else took + IN_FLIGHT
    if run.took is None:
        run.recovered = False
        run.notes.append("no move after the host was lost")
    if fault == "kill":
        return
    time.sleep(max(0.0, lost_at + delay + 12 - time.monotonic()))
    if fault == "stop":
        host.kill(signal.SIGCONT)
    else:
        laptops.link_up(m0)
    try:
        said = host.expect(laptops.line("the table moved to "), 30)["line"]
        code = host.wait(STEP)
    except Exception as exc:
        run.recovered = False
        run.notes.append(f"the old host did not step down: {str(exc).splitlines()[0]}")
        return
    if code != 0:
        run.recovered = False
        run.notes.append(f"the old host said {said!r} and exited {code}")


def cutoff_run(
    lan: Any, run: Run, watches: list[Watch], away_m: Any, which: int, delay: float,
    grace: float,
) -> None:
    """Laptop ``away_m`` (bot ``which``) cut off for D + G + 5 s, then back: the next
    move at the host meanwhile, no move shown by the cut-off laptop, and its next move
    at the same host after it is back."""
    away = watches[which]
    on = [w for w in watches if w is not away]
    laptops.cut_off(lan, away_m)
    cut = time.monotonic()
    run.took = next_move(on, cut, cut + delay + grace + 5)
    time.sleep(max(0.0, cut + delay + grace + 5 - time.monotonic()))
    away.poll()
    alone = [sid for at, sid, _colour in away.moves if at > cut + IN_FLIGHT]
    if alone:
        run.notes.append(f"{away.agent.label} showed {len(alone)} moves while cut off")
    laptops.reconnect(lan, away_m)
    back = time.monotonic()
    if next_move([away], back, back + STEP + delay + 10) is None:
        run.recovered = False
        run.notes.append(f"{away.agent.label} did not play on after it was back")
    # the table waits for an away player's turn (its seat is held G): not a fault
    then = next_move(on, cut, back + STEP)
    first = next((c for w in on if (c := w.colour_after(cut + IN_FLIGHT)) is not None), None)
    if first is not None and first == away.seat():
        run.waited, run.took = True, None
        run.notes.append(f"it was {first}'s turn: the table waited for the cut-off "
                         f"player (its move {then or 0:.1f} s after the cut)")
    elif run.took is None:
        run.recovered = False
        run.notes.append(f"no move at the host while a laptop was cut off (then {first})")


def quantile(times: list[float], q: float) -> float:
    """The ``q`` quantile of ``times`` (inclusive method; the value itself for one)."""
    if len(times) == 1:
        return times[0]
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return cuts[round(q * 100) - 1]


def table(runs: list[Run], delay: float, grace: float, think: float) -> str:
    """Per fault and overall: runs, moves lost, second tables, not recovered, next move."""
    rows = [f"D = {delay:g} s, G = {grace:g} s, bots think {think:g} s",
            f"{'fault':<9} {'runs':>4} {'lost':>5} {'2nd':>4} {'unrec':>5} {'waited':>6} "
            f"{'timed':>5} {'p50':>6} {'p95':>6} {'max':>6}"]
    groups = [(f, [r for r in runs if r.fault == f]) for f in FAULTS] + [("all", runs)]
    for name, these in groups:
        if not these:
            continue
        times = [r.took for r in these if r.took is not None]
        stats = (f"{statistics.median(times):6.2f} {quantile(times, 0.95):6.2f} "
                 f"{max(times):6.2f}" if times else f"{'-':>6} {'-':>6} {'-':>6}")
        rows.append(f"{name:<9} {len(these):>4} {sum(r.lost for r in these):>5} "
                    f"{sum(r.second for r in these):>4} "
                    f"{sum(not r.recovered for r in these):>5} "
                    f"{sum(r.waited for r in these):>6} {len(times):>5} {stats}")
    return "\n".join(rows)


def seconds(text: str, default: float) -> float:
    return default if text == "default" else float(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=52)
    parser.add_argument("--delay", default="3",
                        help=f"the hosts' --takeover-delay D, or 'default' ({timings.DELAY:g})")
    parser.add_argument("--grace", default=None,
                        help=f"the hosts' --grace G, or 'default' ({timings.GRACE:g}); "
                        f"unset: the default with the default D, else {laptops.GRACE}")
    parser.add_argument("--fault", choices=[*FAULTS, "all"], default="all")
    parser.add_argument("--think", type=float, default=0.4, help="the bots' --think")
    parser.add_argument("--log", type=Path, default=None,
                        help="append the bots' and hosts' stderr of each odd run here")
    parser.add_argument("--finish", action="store_true",
                        help="play each game to its end and compare what the laptops list")
    args = parser.parse_args()
    args.delay = seconds(args.delay, timings.DELAY)
    if args.grace is None:
        args.grace = timings.GRACE if args.delay == timings.DELAY else float(laptops.GRACE)
    else:
        args.grace = seconds(args.grace, timings.GRACE)
    if not args.delay < args.grace:
        parser.error("the delay D must be less than the grace G")
    skip = netns.netns_skip_reason()
    if skip is not None:
        print(f"cannot run: {skip}", file=sys.stderr)
        return 2
    faults = FAULTS if args.fault == "all" else (args.fault,)
    runs: list[Run] = []
    started = time.monotonic()
    with netns.VirtualLan(4) as lan:
        for i in range(args.runs):
            run = one_run(lan, args, faults[i % len(faults)], i)
            runs.append(run)
            took = "none" if run.took is None else f"{run.took:.2f} s"
            print(f"run {i + 1} {run.fault}: next move {took}, {run.lost} lost, "
                  f"{run.second} second tables{'' if run.recovered else ', NOT RECOVERED'}"
                  + "".join(f"\n    {n}" for n in run.notes), flush=True)
    print(table(runs, args.delay, args.grace, args.think))
    if args.finish:
        print(f"laptops x games that disagree: {sum(r.disagree for r in runs)} of "
              f"{sum(r.pairs for r in runs)} (every game played to its end)")
    print(f"({time.monotonic() - started:.0f} s)")
    bad = any(r.lost or r.second or not r.recovered or r.disagree for r in runs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
