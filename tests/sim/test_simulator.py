"""The simulator of evenings (issue 31): a seed replays exactly, the fault classes keep
every invariant, and each case of issue 31 and each fault the simulator found on the
way is a seed that pins its fix (none is left open: a new one found goes in FIXED
with its fix, never as an expected failure)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import pytest

from sorry_lan.succession import election as el

from .evening import Outcome, run_evening
from .faults import CLASSES
from .invariants import final_record


def rules(out: Outcome) -> set[str]:
    return {v.rule for v in out.violations}


def test_the_same_seed_replays_the_same_evening() -> None:
    every = list(CLASSES)
    first = run_evening(11, every)
    again = run_evening(11, every)
    assert first.trace == again.trace and first.trace_digest == again.trace_digest
    assert first.faults and first.steps > 500
    other = run_evening(12, every)
    assert other.trace_digest != first.trace_digest


@pytest.mark.parametrize(
    ("faults", "seeds"),
    [([], range(2)), (["drop"], range(2)), (["move"], [0, 2]), (["forge"], [0]),
     (["sleep"], range(2)), (["winkill"], [0])],
)
def test_evenings_with_faults_that_hold_today_keep_every_invariant(
    faults: list[str], seeds: Iterable[int]
) -> None:
    for seed in seeds:
        out = run_evening(seed, faults, count=1)
        assert out.violations == [], (seed, out.violations)
        assert out.over, seed
        assert out.faults == faults


def test_an_evening_with_a_lone_takeover_is_caught() -> None:
    """The checks can fail: a laptop of two cut off past G whose person says yes to
    playing on alone takes over alone (c); the same bot laptop never does."""
    out = run_evening(1, ["cutoff"], count=1, ask_alone=True)
    assert "c" in rules(out) and out.takeovers == 1
    bots = run_evening(1, ["cutoff"], count=1)
    assert bots.violations == [] and bots.takeovers == 0


# (fault, seed, laptops (None: drawn), the invariants the old code broke, the case):
# each holds since the succession fixes (election, lease), and pins them; fault "all":
# the seed as ``simulate_evenings.py`` runs it (every class, 1-3 faults drawn); "forge*2":
# ``--faults forge --count 2``; "forge*": ``--faults forge`` (1-3 drawn)
FIXED = [
    ("cutoff", 0, None, {"a", "b", "c"},
     "case 1: a laptop cut off past G started a second table (no lone takeover now)"),
    ("partition", 0, 4, {"a", "b", "c"},
     "case 2: a 2|2 split: the old host played on, moves shown were replaced (the "
     "host now pauses: fewer than a quorum within its lease)"),
    ("partition", 11, None, {"a"}, "case 2: the old host played on beside the new one"),
    ("sleep", 10003, None, {"e"},
     "case 4: the host asleep past D with one other laptop; its own player's move "
     "was answered 'the table is paused' and no move was offered again"),
    ("sleep", 10014, None, {"e"},
     "case 7: a seated host that slept stepped down; the successor's table had no "
     "seat for its player (bad_token), whose election then waited for ever"),
    ("delay", 1, None, {"lease", "b"},
     "a link slower than D: a successor while the host played on, moves replaced"),
    ("cutoff", 47, None, {"e"},
     "case 7 left: the seated host cut off past G steps down; its player's seat was "
     "released once the game ended, the successor refused its token (bad_token), and "
     "its election, which named itself the host, never walked on (now: the laptop "
     "handed over to refuses the seat, so it follows the table as a spectator and "
     "is shown the end; a walk after a handover goes on whoever hosted before)"),
    ("move", 10005, None, {"b"},
     "the host's address moves and its 3 links reset: it played on with its own "
     "player until their leases ran out, so states shown to that player were "
     "replaced by the successor's (a closed link now counts absent at once)"),
    ("delay", 3, None, {"e"},
     "two laptops, a link slower than the 2 s try: a timed-out try's hello reached "
     "the host after the laptop's reconnect and replaced it; the live link's bye "
     "'replaced' was taken for the host's goodbye (now: a loss, it reconnects)"),
    ("move", 1, None, {"e"},
     "two laptops, the host's address moves: the other tried the old address for "
     "ever (an advert at the known epoch was ignored; now tried: the same host "
     "there is followed back)"),
    ("crash", 1, None, {"e"},
     "two laptops, the seated host crashes: the other, a bot, may not host alone; "
     "the host's laptop restarted as a joiner and looked for ever (now its person "
     "resumes the game, 'host --resume', finding no table; the other is back in it)"),
    ("winkill", 1, None, {"e"},
     "two laptops, the seated host killed at the win: nobody may host (crash-1), and "
     "its restarted laptop never learned the end (now: resumed, the end is told)"),
    ("forge", 8, None, {"e"},
     "the rogue's fault killed the host of two laptops: the crash-1 case"),
    ("all", 3266, None, {"e"},
     "(delay, forge, forge) the epoch-2 host crashed; its restarted laptop found the "
     "table advertised nowhere and its person resumed it, 'host --resume', at epoch 1 "
     "under the journal file's own id, which the other laptop refused: the game never "
     "ended (now: at the table's id and epoch 2, followed back)"),
    ("all", 40, None, {"e"},
     "(delay, cutoff, crash) the epoch-2 host crashed and nobody else could host: "
     "resumed as the crash-3266 case, it is followed back and the game ends"),
    ("all", 26, None, {"b"},
     "(cutoff, move, forge) a laptop refused a rogue's claim but kept the board sent "
     "with it, took over from that older board and replaced the moves seen since"),
    ("all", 191, None, {"a", "e"},
     "(forge, partition, move) the epoch-2 host crashed; restarted, it refused the "
     "cut-off first host (an old epoch) with bye quit, so that host forgot it, found "
     "a quorum of 4 among 3 and played on (now: a fatal error, the seat kept); and "
     "its person, the join refused, resumed the table it hosted ('host --resume')"),
    ("forge*2", 2164, 3, {"e"},
     "the epoch-2 host crashed and its restarted laptop joined the resumed first "
     "host, refused it (an old epoch) and joined again for ever (now: its person "
     "resumes the table it hosted; the first host finds it and steps down)"),
    ("forge*", 2182, None, {"e"},
     "three forges: the forge*2-2164 case, then a replay that killed the resumed "
     "epoch-2 host; the others take over at epoch 3 and end the game"),
    ("all", 945, None, {"lease"},
     "(cutoff x3) a laptop voted for the next laptop, then rejoined the paused old "
     "host at its new advert: the old host counted it and played on while the one it "
     "voted for took over with its vote (now: a voter follows no older host for 3 D, "
     "Raft's term; it follows the new host, and the old one steps down)"),
    ("all", 1744, None, {"lease"},
     "(cutoff, forge, cutoff) the same as 945, after a forged claim was refused"),
    ("all", 24, None, {"b"},
     "(partition, cutoff, partition) the window of the lease: the host cut off made a "
     "state from its own player's move before its lease ran out and showed it to that "
     "player alone; the successor, which never had it, decided that seat's turn afresh "
     "(now: protocol version 5, Raft's commit rule: a state is shown once enough "
     "laptops of the order hold it that every election's quorum does, SPEC 13)"),
    ("all", 34, None, {"b"}, "(delay, cutoff, delay) the window of the lease, as 24"),
    ("all", 69, None, {"b"},
     "(partition) the window of the lease, as 24, the state also reached a laptop on "
     "the host's side 35 us before a 2|2 split: one laptop of the three is no share "
     "every quorum meets, so it is not settled, not shown"),
    ("all", 132, None, {"b"}, "(delay, partition) the window of the lease, as 24"),
    ("all", 157, None, {"b"}, "(partition) the window of the lease, as 24"),
    ("all", 578, None, {"e"},
     "(move, sleep, sleep) the first host slept; the successor's laptop moved, so the "
     "host woke and probed it where it had offered, found nobody and stayed paused: "
     "its own player never learned the end (now: the advert of the newer epoch shows "
     "where to probe it, SPEC 13; the host steps down). So did 857 and 875"),
    ("all", 875, None, {"e"}, "(sleep, move, cutoff) the first host cut off: as 578"),
    ("all", 1032, None, {"e"},
     "(move, partition, sleep) the first host's laptop moved, then slept; woken, it "
     "stepped down, and its own player, retrying it at the address it had before "
     "the move, never heard the handover (the simulator's: that player joins its own "
     "host over loopback; and its election now walks when its own host no longer "
     "takes it back). So did 1088, 1089, 1093 and 1265"),
    ("all", 1093, None, {"e"}, "(move, sleep, partition) as 1032"),
    ("all", 635, None, {"e"},
     "(winkill, crash, winkill) the epoch-2 host died at the win; restarted, it "
     "refused the first host's resumed epoch-1 table and tried it again for ever, so "
     "the end in its journal reached nobody (the simulator's: 'join' ends on a host "
     "it refused; now its person resumes the table it hosted, the first host finds "
     "epoch 2 and steps down, and the end is told)"),
    ("all", 454, None, {"b"},
     "(crash, forge, sleep) a rogue replayed the first host's own succession (epoch "
     "1, its seat) at its own address and port, its order the one laptop that had "
     "crashed; restarted, that laptop joined it, and the rogue settled its moves by "
     "that laptop alone, so they were shown, then the first host's replaced them "
     "(now: the seat file keeps the host's port, and a restarted laptop refuses "
     "that host at that epoch on another port as a replay)"),
    ("all", 1675, None, {"b"},
     "(cutoff, 3 laptops) the simulator's: the successor began at the board it was "
     "sent (sid 94) and showed its own sid 97, a state its shell never saw at rest; "
     "(b) looked 97 up in the cut-off first host's states, made after 94 and shown to "
     "nobody (now: a host's states are the record only up to where its successor "
     "began)"),
    ("all", 1501, None, {"b"}, "(partition, delay) as 1675: the successor's sid 72"),
    ("all", 1629, None, {"b"}, "(delay, partition, delay) as 1675: the successor's 68"),
    ("all", 1144, None, {"b"},
     "(winkill, partition) as 1675 two hosts back: epoch 2's sid 135, checked "
     "against epoch 1's"),
    ("all", 2250, None, {"e"},
     "(crash, crash) the simulator's: the epoch-2 host crashed before anyone followed "
     "it; the first host's person resumed epoch 1 and the third laptop followed it "
     "back (a majority); restarted, the epoch-2 laptop refused it (an old epoch) and "
     "its person resumed epoch 2 anyway, a second table paused for ever behind the "
     "game the others played to its end (now: a person who sees the others play on "
     "resumes nothing; the join said why it refused)"),
    ("all", 2189, None, {"e"},
     "(cutoff, forge, crash) two laptops: a rogue replayed the first host's claim on "
     "another port and the host crashed; restarted, the other laptop refused the "
     "replay and its join ended, so the table its host's person resumed 5 s later "
     "waited for ever (and the monitor named the crashed host final). Now a join "
     "that refuses its host replayed looks on where its seat says the table may be "
     "(the host's own port), finds it resumed and the game ends; the monitor names "
     "the live host resumed from the crashed one, and keeps (e) for a pause only if "
     "each laptop running gave up or waits at that host, told why"),
    ("all", 3988, None, {"e"},
     "(sleep, forge, winkill) the simulator's: the epoch-2 host crashed while the "
     "first host slept; restarted, it refused a rogue's replay of epoch 1 and its "
     "person resumed nothing, since the first host, asleep and not yet paused, "
     "counted as the game going on (now: a laptop asleep shows nothing going on)"),
    ("all", 6634, None, {"a"},
     "(partition, forge) a 2|2 split: the epoch-2 successor, elected by its side, made "
     "a state at once (counting its voters present before any was back) and crashed; "
     "its voter's bond ran out (3 D) after the heal, it went back to the first host, "
     "whose quorum was then whole and which played sid 94 again. Now a successor's "
     "laptops count present only once they answered its ping (they took its "
     "succession: never to follow an older host)"),
    ("all", 9078, None, {"e"},
     "(partition, forge) three laptops: the first host cut off, Ann took the table at "
     "epoch 2 and died as a rogue rose claiming epoch 2 as the first host's seat; "
     "restarted, she followed it (another laptop at her epoch), so resumed nothing; it "
     "vanished, and she and Bob each stood alone in an order of one for 10 minutes "
     "while the first host stayed paused. Now a laptop that hosted an epoch follows "
     "another at it only if that one stood in an order it followed: she refuses the "
     "rogue, looks on, resumes, and Bob and the first host follow her"),
]  # fmt: skip


@pytest.mark.parametrize(("fault", "seed", "laptops", "broken", "case"), FIXED,
                         ids=[f"{f}-{s}" for f, s, _, _, _ in FIXED])
def test_fixed_case_seed_keeps_every_invariant(fault: str, seed: int, laptops: int | None,
                                               broken: set[str], case: str) -> None:  # fmt: skip
    fault, star, times = fault.partition("*")  # ("forge*2": --faults forge --count 2)
    faults = None if fault == "all" else [fault]
    count = None if faults is None or (star and not times) else int(times or 1)
    out = run_evening(seed, faults, count=count, laptops=laptops)
    assert not (rules(out) & broken), (case, out.violations)
    assert out.violations == [], (case, out.violations)
    assert out.over, case


# (seed, laptops or None for as many as the seed draws, the invariants the old code
# broke, the cause): evenings drawn as scripts/simulate_evenings.py draws them (every
# fault class, 1-3 faults), each holding since the fix it names
FIXED_EVENINGS = [
    (5, 3, {"e"},
     "the first host, asleep, stepped down and followed the successor, which then "
     "crashed: the first host's own player offered no standby in the simulator (its "
     "client has an heir like any player's in 'host'), so it was no laptop of the "
     "electorate, its vote never counted, and the last laptop stood for ever"),
    (64930, None, {"e"},
     "the simulator's own fault: a partition healed the links of a laptop still cut off "
     "(a link two faults cut came back when the first healed), so a voter reached the "
     "first host, unplugged, while the successor could not: links now count their cuts"),
    (65669, None, {"e"}, "as 64930: a partition over the first host's cutoff"),
]  # fmt: skip


@pytest.mark.parametrize(("seed", "laptops", "broken", "case"), FIXED_EVENINGS,
                         ids=[f"evening-{s}-{n}" for s, n, _, _ in FIXED_EVENINGS])
def test_fixed_evening_keeps_every_invariant(seed: int, laptops: int | None, broken: set[str],
                                             case: str) -> None:  # fmt: skip
    out = run_evening(seed, list(CLASSES), laptops=laptops)
    assert not (rules(out) & broken), (case, out.violations)
    assert out.violations == [], (case, out.violations)
    assert out.over, case


# (fault, seed, laptops, the invariants the old code broke, the case): safety holds
# since the fix named; liveness (e) is still another case's (named in the text)
SAFE = [
    ("all", 40, None, {"a", "b"},
     "(delay, cutoff, crash) the epoch-2 host crashed and restarted with no memory of "
     "it, rejoined the cut-off first host at epoch 1 and gave it a majority again: it "
     "played on from its old board (its seat file now keeps the epoch it followed). "
     "(e) since: its person resumes the epoch-2 table (FIXED, all-40)"),
    ("all", 191, None, {"a"},
     "(forge, partition, move) as seed 40, at four laptops. Left (e): the epoch-2 "
     "host's crash leaves a majority nobody can reach while the old host stays paused"),
    ("all", 162, None, {"b"},
     "(cutoff, forge, cutoff) the first host crashed and restarted as a joiner with no "
     "memory of hosting epoch 1, and followed a rogue claiming epoch 1 as the other "
     "laptop, which showed it its own board (refused now: out of turn at that epoch). "
     "Left (e): two laptops, the host crashed (crash-1)"),
    ("all", 1016, None, {"b"},
     "(forge, sleep) the epoch-2 host crashed, restarted and followed a rogue "
     "replaying epoch 1, which showed it states past the table's (refused now: an "
     "old epoch). Left (e): nobody can host after that crash"),
    ("all", 1174, None, {"b"},
     "(forge, crash) a rogue replayed the first host's own succession (epoch 1, its "
     "seat); the first host's player, restarted, remembered exactly that and followed "
     "it (refused now: a laptop's own table died with its process). Left (e): crash-1"),
    ("all", 3389, None, {"b"},
     "(forge, forge, partition) a rogue hosted epoch 2 as its successor, at an address "
     "and port of its own; the first host's player, restarted (its seat recalls epoch "
     "1), followed it and was shown the rogue's states, settled by the rogue as that "
     "laptop, which the real successor's replaced (now: the seat file keeps each "
     "laptop's standby port, and a restarted laptop refuses a newer epoch's host off "
     "it, SPEC 13)"),
]  # fmt: skip


@pytest.mark.parametrize(("fault", "seed", "laptops", "broken", "case"), SAFE,
                         ids=[f"{f}-{s}" for f, s, _, _, _ in SAFE])
def test_safe_case_seed_keeps_the_safety_invariants(fault: str, seed: int,
                                                    laptops: int | None, broken: set[str],
                                                    case: str) -> None:  # fmt: skip
    faults = None if fault == "all" else [fault]
    out = run_evening(seed, faults, count=None if faults is None else 1, laptops=laptops)
    assert not (rules(out) & {"a", "b", "c", "d", "lease"}), (case, out.violations)


def test_case_3_the_forged_claim_is_refused() -> None:
    """Case 3: a rogue claims the next epoch as the laptop's own seat (the host
    killed as it rises); the laptop refuses it (out of turn) instead of following,
    and is back at the table when the host's person resumes it (before: once nobody
    could host it gave up)."""
    out = run_evening(8, ["forge"], count=1)
    said = [line[3] for line in out.trace if line[1:3] == ("decide", "lap1")]
    refused = [d for d in said if isinstance(d, el.RefuseHost)]
    assert refused and refused[0].reason is el.Claim.OUT_OF_TURN
    assert not any(isinstance(d, el.Follow) for d in said)
    assert ("welcomed", "lap1", "host", "lap0", 1) in [line[1:] for line in out.trace]
    assert out.takeovers == 0 and out.violations == [] and out.over


@dataclass(frozen=True)
class Part:
    states: Mapping[int, tuple[int, ...]]
    begun: int | None


def test_the_final_record_ends_each_host_where_its_successor_began() -> None:
    """A cut-off host played on past the board its successor began at (94): its 95
    and 97 are no part of the record, the successor's 96 and 101 are; its own 97,
    never seen at rest, is not in it (seed 1675); a sid both made is the newest's."""
    first = Part({93: (1,), 94: (2,), 95: (3,), 97: (4,)}, 0)
    second = Part({94: (2,), 96: (5,), 101: (6,)}, 94)
    assert final_record([second, first]) == {93: (1,), 94: (2,), 96: (5,), 101: (6,)}
    third = Part({95: (7,), 96: (8,)}, 95)
    assert final_record([third, second, first]) == {93: (1,), 94: (2,), 95: (7,), 96: (8,)}
    lobby = Part({96: (9,)}, None)
    assert final_record([lobby, first])[97] == (4,)
