"""The line mode's loop: commands typed between the host's events, over loopback."""

from __future__ import annotations

import asyncio
import re

from line_harness import lines_at

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.handbook import handbook
from sorry_lan.i18n import use_language, words
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.rules import Variant
from sorry_lan.rules.variants import VARIANTS
from sorry_lan.tui.line_help import help_lines
from sorry_lan.tui.lines import not_understood
from sorry_lan.wire import messages as m


async def _game() -> tuple[int, list[str]]:
    table = Table(TableConfig(variant=Variant.STANDARD, seats=2, auto_start=True, seed=5))
    table.add_bot(None)
    server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0))
    await server.start("127.0.0.1", 0)

    def answer(line: str, said: list[str]) -> list[str]:
        if line.startswith("The game begins"):
            return ["help", "board", "xyzzy", "9", "repeat", "rules", "rules 2", "rules 99",
                    "help all"]
        if line.startswith("Type your move's number"):
            return ["moves" if said.count(line) == 1 else "1"]
        return ["quit"] if line.startswith("The game is over") else []

    said = await lines_at(server, answer)
    return int(said.pop().split()[1].rstrip(")")), said


#: A player's figures as the line mode says them at the end of a game.
FIGURES = r"^[^:]+: \d+ bumps?, \d+ Sorry!, \d+ slides? in \d+ turns?\.$"


def test_a_whole_game_with_help_board_moves_and_mistakes() -> None:
    status, said = asyncio.run(_game())
    assert status == 0
    start = said.index(help_lines("game")[0])
    assert said[start : start + len(help_lines("game"))] == help_lines("game")
    every = said.index(help_lines()[-1]) + 1  # help all
    assert said[every - len(help_lines()) : every] == help_lines()
    assert len(help_lines("game")) < len(help_lines())
    book = handbook("en")
    parts = [book.title, *(s.title for s in book.sections_for("standard"))]
    assert f"The rules have {len(parts)} parts: 1: {parts[0]}; 2: {parts[1]};" in " ".join(said)
    second = book.sections_for("standard")[0]
    at = said.index(second.paragraphs[0].text)
    assert said[at - 1].startswith(second.title) and said[at : at + len(second.paragraphs)] == [
        p.text for p in second.paragraphs]
    assert not_understood(
        f"the rules have {len(parts)} parts: type rules and a number from 1 to {len(parts)}"
    ) in said
    assert any(line.startswith("Your pawns (") for line in said)
    assert not_understood("unknown command 'xyzzy'") in said
    assert not_understood("no such move on offer") in said
    head = next(i for i, line in enumerate(said) if line.startswith("Ann, your turn"))
    end = next(i for i in range(head, len(said)) if said[i].startswith("Type your move's number"))
    block = said[head : end + 1]
    again = said.index(block[0], end + 1)  # "moves" said the offer again
    assert said[again : again + len(block)] == block
    assert any(line.startswith("You played ") for line in said)
    over = max(i for i, line in enumerate(said) if line.startswith("The game is over: "))
    figures = [line for line in said[over:] if re.search(FIGURES, line)]
    assert [line.split(":")[0] for line in figures] == ["greedy bot 1", "Ann"], said[over:]


def test_the_result_line_is_a_sentence_with_names_and_points() -> None:
    from sorry_lan.i18n import use_language
    from sorry_lan.rules.board import Colour
    from sorry_lan.tui.lines import format_result

    names = {0: "Ann", 1: "Bob", 2: "Cy"}
    with use_language("en"):
        won = m.GameOver(sid=9, winners=(Colour.RED, Colour.YELLOW), scores=None)
        assert format_result(won, names) == "Red (Ann) and Yellow (Cy) won."
        points = m.GameOver(sid=9, winners=(Colour.BLUE,), scores=(10, 145, 0, 0))
        assert format_result(points, {0: "Ann", 1: "Bob"}) == (
            "Blue (Bob) won. Points: Red (Ann) 10, Blue (Bob) 145."
        )
        ended = m.GameOver(sid=9, winners=(), scores=None)
        assert format_result(ended, names) == "The host ended the game before anyone won."
    with use_language("cy"):
        assert format_result(won, names) == "Enillodd Coch (Ann) a Melyn (Cy)."


async def _refused(lang: str) -> list[str]:
    table = Table(TableConfig(variant=Variant.STANDARD, seats=2, auto_start=True, seed=5))
    table.add_bot(None)
    server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0))
    await server.start("127.0.0.1", 0)
    typed: list[str] = []

    def answer(line: str, said: list[str]) -> list[str]:
        if typed or not line.startswith("Ann,"):  # (once the game is on)
            return []
        typed.extend(ASKED)
        return [*ASKED, "quit"]

    with use_language(lang):
        return await lines_at(server, answer)


#: Requests the game does not allow mid-game (or at all), and the English refusals.
ASKED = ["colour blue", "ready", "rematch", "say", "say " + "x" * 201, "variant chess"]
REFUSALS_EN = [
    "that is for the lobby, before a game starts",
    "the game has begun: ready is for the lobby",
    "rematch is for when a game is over",
    "type say, a space and your message",
    "a message can be at most 200 characters",
    "unknown variant 'chess' (choose {choices})",
]


def test_a_request_the_game_does_not_allow_now_is_refused_in_the_players_words() -> None:
    """Mid-game, ``colour``, ``ready``, ``rematch``, an empty or long ``say`` and an
    unknown variant each get a sentence about the game, never a protocol word."""
    said = asyncio.run(_refused("en"))
    choices = ", ".join(words.variant_title(v) for v in VARIANTS)
    expected = [not_understood(why.format(choices=choices)) for why in REFUSALS_EN]
    assert [line for line in said if line.startswith("Your command did not work")] == expected
    greek = asyncio.run(_refused("el"))
    with use_language("el"):
        head = not_understood("@").split("@")[0]
    refused = [line for line in greek if line.startswith(head)]
    assert len(refused) == len(ASKED), greek
    for line, why in zip(refused, REFUSALS_EN, strict=True):
        assert why.format(choices=choices)[:12] not in line, line  # (said in Greek)
    for line in greek:
        assert not re.search(r"unexpected|bad_value|forbidden|in state|chat\.text", line), line
