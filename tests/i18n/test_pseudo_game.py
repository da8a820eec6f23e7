"""A whole game in the pseudo-locale: every line a player reads is translated.

A host with a bot runs on 127.0.0.1; our client plays the first move offered each
turn.  Every event goes through the line interface's words (``join --text``) and the
board's feed (its log, notices and winner line) in the pseudo-locale, where every
translated message is accented and bracketed: an English word that is not a
player's name, a pawn token or a command the player types means a message escaped
the catalogs.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.i18n import PSEUDO, use_language
from sorry_lan.net.client import GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.rules import Variant
from sorry_lan.tui.feed import apply_event
from sorry_lan.tui.state import Screen, UiState
from sorry_lan.tui.telling import Teller
from sorry_lan.wire import messages as m

# Words a player may read in English in any language: typed commands and names.
ALLOWED = {"rematch", "Ann"}
WORD = re.compile(r"[A-Za-z]{3,}")


async def _play(variant: Variant) -> tuple[list[str], UiState]:
    seats = 4 if variant is Variant.TEAM else 2
    table = Table(TableConfig(variant=variant, seats=seats, auto_start=True, seed=7))
    for _ in range(seats - 1):
        table.add_bot(None)
    server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0))
    await server.start("127.0.0.1", 0)
    client = GameClient("127.0.0.1", server.address[1], "Ann")
    lines: list[str] = []
    st = UiState(screen=Screen.FIND)
    teller = Teller()
    try:
        await client.connect()
        while True:
            ev = await asyncio.wait_for(client.next_event(), 20)
            with use_language(PSEUDO):
                lines += teller.tell(client.model, ev)
                if isinstance(ev, m.Events):
                    lines += teller.board()
                apply_event(st, client.model, ev)
            if isinstance(ev, m.LegalMoves):
                client.play(ev.moves[0].id)
                teller.played()
            if isinstance(ev, m.GameOver):
                return lines, st
    finally:
        await client.close()
        await server.close()


def _english_words(text: str, names: set[str]) -> list[str]:
    return [w for w in WORD.findall(text) if w not in ALLOWED | names]


@pytest.mark.parametrize("variant", list(Variant))
def test_a_whole_game_reads_in_the_pseudo_locale(variant: Variant) -> None:
    lines, st = asyncio.run(_play(variant))
    names = {n for n in st.names.values()} | {w for n in st.names.values() for w in n.split()}
    assert st.screen is Screen.OVER and st.winner
    assert len(lines) > 50 and len(st.log) > 20
    leaks = [(line, _english_words(line, names)) for line in [*lines, *st.log, st.winner]]
    assert [leak for leak in leaks if leak[1]] == []


def test_the_variant_command_takes_a_title_in_the_players_language() -> None:
    from sorry_lan.tui.lines import parse_variant

    with use_language("cy"):
        assert parse_variant("Chwarae mewn timau") == "team"
        assert parse_variant("team play") == "team"
        assert parse_variant("points") == "points"
