"""What a player finds after coming back from a new process: the join screen offers
the name they joined under last (kept beside the seat files), and the lobby's chat
is on the board again.  A real host on 127.0.0.1, the real board on a pipe."""

from __future__ import annotations

from pathlib import Path

import pytest
from client_harness import LOCAL, board, host_table

from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.names import NAME_FILE, NameStore
from sorry_lan.tui.state import Screen, UiState


def test_the_name_kept_is_read_back_and_a_bad_file_reads_as_none(tmp_path: Path) -> None:
    store = NameStore(tmp_path / "seats")
    assert store.last() is None  # nothing kept yet (and no directory)
    assert store.keep("Βασίλης") and store.last() == "Βασίλης"
    assert (tmp_path / "seats" / NAME_FILE).stat().st_mode & 0o077 == 0
    for bad in (b"", b" Ann", b"x" * 30, b"\xff\xfe", b"a\tb"):
        (tmp_path / "seats" / NAME_FILE).write_bytes(bad)
        assert store.last() is None, bad


@pytest.mark.asyncio
async def test_a_new_board_offers_the_last_name_and_shows_the_lobbys_chat(
    tmp_path: Path,
) -> None:
    server, _ = await host_table(seats=3)
    port = server.address[1]
    names = NameStore(tmp_path)
    ann = GameClient(LOCAL, port, "ann", ClientOptions())
    try:
        await ann.connect()
        async with board() as (d, ctl, _task):  # Zoë joins and leaves
            ctl.on_name = names.keep
            await d.keys(f"\t{LOCAL}:{port}\t")  # the address, then the name
            await d.keys("\x05" + "\b" * 3 + "Zoë\r")
            await d.wait_for(lambda: ctl.state.screen is Screen.LOBBY, timeout=10)
        assert names.last() == "Zoë"
        ann.chat("who wants green?")
        state = UiState(default_name=names.last() or "player")
        async with board(state=state) as (d, ctl, _task):  # the next time
            assert "Name:    Zoë" in "\n".join(d.screen_lines())
            await d.keys(f"\t{LOCAL}:{port}\r")
            await d.wait_for(lambda: any("who wants green?" in x for x in state.chat), timeout=5)
            assert {p.name for p in server.table.players.values()} == {"ann", "Zoë"}
    finally:
        await ann.close()
        await server.close()
