"""``sorry-lan simulate``: statistics of bot games, reproducibility, usage errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sorry_lan.cli import main
from sorry_lan.commands.simulate import SimulationError, parse_bots, simulate
from sorry_lan.rules import Variant

REPO = Path(__file__).resolve().parents[2]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    if "--jobs" not in args:
        args = (*args, "--jobs", "1")
    status = main(["simulate", *args, "--json"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), err
    assert out.count("\n") == 1
    data: dict[str, Any] = json.loads(out)
    return data


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k not in ("seconds", "games_per_second")}
    out["bots"] = {k: {f: x for f, x in v.items()
                       if f not in ("decision_ms", "decision_cpu_ms")}
                   for k, v in data["bots"].items()}
    return out


def test_two_player_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--games", "40", "--bots", "greedy,random", "--seed", "3")
    assert data["games"] == 40
    assert data["variant"] == "standard"
    assert [s["colour"] for s in data["seats"]] == ["red", "yellow"]
    assert sum(s["wins"] for s in data["seats"]) == 40
    greedy, random_ = data["bots"]["greedy"], data["bots"]["random"]
    assert greedy["wins"] + random_["wins"] == 40
    assert greedy["wins"] > random_["wins"]
    lo, hi = greedy["win_rate_ci95"]
    assert lo < greedy["win_rate"] < hi and 0 < hi - lo < 0.4
    for row in (greedy, random_):
        ms, cpu = row["decision_ms"], row["decision_cpu_ms"]
        assert ms["count"] > 40 and 0 < ms["mean"] <= ms["max"] and ms["p95"] <= ms["max"]
        assert cpu["count"] == 0  # a one-move judge's decision is not worth a CPU clock read
    assert all(abs(s["win_rate"] - s["wins"] / 40) < 1e-9 for s in data["seats"])
    # A standard game ends when the winner has all four pawns home.
    assert max(s["average_score"] for s in data["seats"]) > 2
    assert data["average_turns"] >= 33  # at least 4 * 16 / 2 moves for the winner alone
    assert data["games_per_second"] > 0


def test_same_seed_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--games", "15", "--players", "3", "--bots", "random", "--seed", "9")
    first = without_timing(run_json(capsys, *args))
    assert first == without_timing(run_json(capsys, *args))
    other = without_timing(run_json(capsys, "--games", "15", "--players", "3", "--seed", "10"))
    assert other != first


def test_team_play_counts_a_win_for_both_partners(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--games", "12", "--players", "4", "--variant", "team",
                    "--bots", "greedy,random,greedy,random")
    wins = {s["colour"]: s["wins"] for s in data["seats"]}
    assert wins["red"] == wins["yellow"] and wins["blue"] == wins["green"]
    assert wins["red"] + wins["blue"] == 12
    # The strengths move round the table, a team keeping its strength.
    bots = data["bots"]
    assert bots["greedy"]["seats"] == bots["random"]["seats"] == 2
    assert bots["greedy"]["wins"] + bots["random"]["wins"] == 12


def test_play_for_points_reports_scores(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--games", "10", "--players", "2", "--variant", "points",
                    "--bots", "greedy")
    assert data["variant"] == "points"
    assert data["bots"]["greedy"]["seats"] == 2
    assert data["bots"]["greedy"]["wins"] == 10
    # The winner scores at least 20 for its own pawns home.
    assert sum(s["average_score"] for s in data["seats"]) >= 20


def test_human_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "5", "--players", "4", "--bots", "random",
                 "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith("5 games, standard, 4 players")
    for colour in ("red", "blue", "yellow", "green"):
        assert any(line.split()[:1] == [colour] for line in out.splitlines())
    assert any(line.split()[:2] == ["random", "4"] for line in out.splitlines())
    assert "average turns:" in out
    assert "games per second:" in out


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--variant", "team"], "team play needs --players 4"),
        (["--variant", "team", "--players", "3"], "team play needs --players 4"),
        (["--variant", "speed"], "unknown variant 'speed'"),
        (["--players", "5"], "--players must be 2, 3 or 4"),
        (["--players", "1"], "--players must be 2, 3 or 4"),
        (["--games", "0"], "--games must be at least 1"),
        (["--bots", "clever"], "unknown bot kind 'clever'"),
        (["--bots", "greedy,random,random"], "lists 3 bots for 2 players"),
        (["--players", "4", "--bots", "greedy,random,random"], "lists 3 bots for 4 players"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--bots", "greedy,"], "empty bot kind"),
    ],
)
def test_bad_arguments_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], reason: str
) -> None:
    assert main(["simulate", "--games", "1", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("sorry-lan simulate: ")
    assert reason in err


def test_non_numeric_games_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--games", "many"])
    assert exc.value.code == 2
    assert "invalid int value" in capsys.readouterr().err


def test_parse_bots() -> None:
    assert parse_bots("random", 3) == ("random",) * 3
    assert parse_bots(" Greedy , random ", 2) == ("greedy", "random")
    assert parse_bots("expert,greedy", 4) == ("expert", "greedy") * 2
    with pytest.raises(SimulationError):
        parse_bots("greedy,random,random", 4)


def test_simulate_function_checks_seating() -> None:
    with pytest.raises(SimulationError, match="team play needs 4 players"):
        simulate(1, Variant.TEAM, ("random", "random"), 0)
    with pytest.raises(SimulationError, match="2 to 4 players"):
        simulate(1, Variant.STANDARD, ("random",), 0)
    stats = simulate(3, Variant.STANDARD, ("random", "greedy"), 1)
    assert stats.games == 3 and stats.seated == (0, 2)


def test_console_entry() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sorry_lan", "simulate", "--games", "5", "--players", "2",
         "--bots", "greedy,random", "--seed", "1", "--json"],
        capture_output=True, text=True, cwd=REPO, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 5
    bad = subprocess.run(
        [sys.executable, "-m", "sorry_lan", "simulate", "--variant", "team"],
        capture_output=True, text=True, cwd=REPO, timeout=60, check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip() == "sorry-lan simulate: team play needs --players 4"


def test_jobs_give_the_same_games_as_one_process() -> None:
    kinds = ("greedy", "random", "expert")
    one = simulate(9, Variant.STANDARD, kinds, 4, jobs=1, budget=60.0)
    three = simulate(9, Variant.STANDARD, kinds, 4, jobs=3, budget=60.0)
    assert one.outcome() == three.outcome()
    assert one.games == three.games == 9
    assert sorted(one.times) == sorted(three.times) == ["expert", "greedy", "random"]
    assert len(one.times["expert"]) == len(three.times["expert"])
    # Only the search is timed on the CPU clock too, every decision of it.
    assert len(one.cpu_times["expert"]) == len(one.times["expert"]) > 0
    assert not one.cpu_times.get("greedy") and not one.cpu_times.get("random")
    assert all(t >= 0 for t in one.cpu_times["expert"])


def test_strengths_and_first_player_rotate_round_the_table() -> None:
    from sorry_lan.commands.simulate import _seats

    kinds = ("expert", "greedy")
    seen = {(tuple(sorted(_seats(kinds, (0, 2), i)[0].items())), _seats(kinds, (0, 2), i)[1])
            for i in range(4)}
    # Each strength at each seat, each seat first: four different set-ups in four games.
    assert len(seen) == 4


def test_budget_option_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--budget-ms", "0"])
    assert "a budget is more than 0" in capsys.readouterr().err
