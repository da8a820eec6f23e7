"""host's table options that reach the table's config: --hints and --bot-strength master."""

from __future__ import annotations

from pathlib import Path

from sorry_lan.cli import build_parser
from sorry_lan.commands.host import _hosted


def test_hints_and_the_master_strength_reach_the_table(tmp_path: Path) -> None:
    args = build_parser("host").parse_args(
        ["host", "--data-dir", str(tmp_path), "--headless", "--hints",
         "--bot-strength", "master"])
    hosted = _hosted(args, None)
    assert hosted.config.hints is True
    assert hosted.config.bot_level == "master"
    plain = _hosted(build_parser("host").parse_args(
        ["host", "--data-dir", str(tmp_path), "--headless"]), None)
    assert plain.config.hints is False


def test_bot_and_simulate_offer_the_master(tmp_path: Path) -> None:
    bot = build_parser("bot").parse_args(["bot", "--strength", "master"])
    assert bot.strength == "master"
    sim = build_parser("simulate").parse_args(["simulate", "--bots", "master,greedy"])
    assert sim.bots == "master,greedy"
