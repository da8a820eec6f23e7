"""The host leaves on purpose (commands/leaving.py): the dialog's hand-over goes to the
server only when a laptop can take the table; leaving without handing over ends the
game; a headless host's stop signal hands over when it can, else stops; after a
handover the seat is kept at the laptop that hosts now.  (The whole story, with real
processes on a virtual LAN: tests/discovery/test_lan_leave.py.)"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import pytest

from sorry_lan.commands.leaving import Leaving, handed_over_lines, keep_seat_there, moved_words
from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.net.seats import SeatStore

if TYPE_CHECKING:
    from sorry_lan.net.host import HostServer
    from sorry_lan.net.hosted import HostedTable


@dataclass
class FakeTable:
    """What Leaving asks of a hosted table: can a laptop take it, and what was done."""

    laptop: bool = True
    stopped: bool = False
    has_moved: bool = False
    done: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        core = SimpleNamespace(can_hand_over=lambda: self.laptop and not self.stopped)
        self.server = SimpleNamespace(core=core, handover=self._handover)

    def _handover(self) -> bool:
        if not self.laptop:
            return False
        self.done.append("handover")
        self.stopped = self.has_moved = True
        return True

    def quit(self) -> None:
        self.done.append("quit")

    def stop(self) -> None:
        self.done.append("stop")
        self.stopped = True


def leaving(table: FakeTable | None) -> Leaving:
    return Leaving(lambda: cast("HostedTable | None", table))


def test_the_dialog_hands_over_only_when_a_laptop_can_take_the_table() -> None:
    table = FakeTable(laptop=False)
    leave = leaving(table)
    hand = leave.hand_over()
    assert hand.hosting() and not hand.possible()
    hand.start()
    assert table.done == [] and [leave.handed] == [False]
    table.laptop = True
    assert hand.possible()
    hand.start()
    assert table.done == ["handover"] and leave.handed
    assert not hand.hosting()  # the table went on elsewhere: nothing hosted here any more
    leave.left()  # the board's leaving after a handover ends nothing
    assert table.done == ["handover"]


def test_leaving_without_handing_over_ends_the_game_and_nothing_hosted_does_nothing() -> None:
    table = FakeTable()
    leaving(table).left()
    assert table.done == ["quit"]
    nothing = leaving(None)
    assert not nothing.hand_over().hosting() and not nothing.possible()
    nothing.left()
    nothing.signalled(lambda text: pytest.fail(text))


def test_a_stop_signal_hands_over_when_it_can_saying_so_and_stops_otherwise() -> None:
    said: list[str] = []
    table = FakeTable()
    leave = leaving(table)
    leave.signalled(said.append)
    assert table.done == ["handover"] and leave.handed and len(said) == 1
    leave.signalled(said.append)  # a second Ctrl-C while it goes: nothing more
    assert table.done == ["handover"] and len(said) == 1
    alone = FakeTable(laptop=False)
    leaving(alone).signalled(said.append)
    assert alone.done == ["stop"] and len(said) == 1  # as before: the table stops


def fake_server(moved: tuple[int, int] | None, addrs: tuple[str, ...] = ("10.0.0.7",)) -> Any:
    laptop = SimpleNamespace(pid=2, addrs=addrs, port=47475)
    players = {2: SimpleNamespace(name="Bob")}
    return SimpleNamespace(
        moved_to=moved, table=SimpleNamespace(players=players),
        core=SimpleNamespace(electorate=SimpleNamespace(laptops={2: laptop})),
    )


def test_after_a_handover_the_seat_is_kept_at_the_laptop_that_hosts_now(tmp_path: Path) -> None:
    seats = SeatStore(tmp_path)
    token = b"t" * 16
    assert seats.save("Ann", token, ["127.0.0.1"], 47474, table="abcd1234")
    server = cast("HostServer", fake_server((2, 2)))
    assert keep_seat_there(seats, server, "Ann", token, "abcd1234")
    (kept,) = seats.seats()
    assert (kept.name, kept.token, kept.port, kept.addresses) == ("Ann", token, 47475,
                                                                  ("10.0.0.7",))
    assert seats.choose(["10.0.0.7"], 47475, None) == kept  # `join --address` finds it
    assert not keep_seat_there(seats, cast("HostServer", fake_server(None)), "Ann", token, "x")
    assert not keep_seat_there(seats, server, "Ann", None, "abcd1234")
    assert seats.seats() == [kept]


def test_the_host_is_told_where_its_table_went_in_every_language() -> None:
    server = cast("HostServer", fake_server((2, 2), ("fd00::7",)))
    assert moved_words(server, 2, 2).endswith("laptop at [fd00::7]:47475; it goes on there")
    assert handed_over_lines(cast("HostServer", fake_server(None))) == []
    english = handed_over_lines(server)
    english_signal: list[str] = []
    leaving(FakeTable()).signalled(english_signal.append)
    for lang in sorted(LANGUAGES):
        with use_language(lang):
            lines = handed_over_lines(server)
            said = leaving(FakeTable())
            signal_words: list[str] = []
            said.signalled(signal_words.append)
        assert len(lines) == 2 and "Bob" in lines[0] and "[fd00::7]:47475" in lines[0]
        assert "`sorry-lan join`" in lines[1]
        assert lang == "en" or (lines != english and signal_words != english_signal)
