"""The host leaves on purpose (issue 19): it hands its table to a player's laptop, or ends it.

:class:`Leaving` belongs to a command whose machine hosts a table: ``host`` (its own
table, from the start) and ``join`` (a table its laptop took over, found through the
client's heir when it is asked).  It gives the board's leave dialog its
:class:`~sorry_lan.tui.state.HandOver` (a laptop connected to take the table: hand it
over with ``HostServer.handover``; ``hosting`` for a ``join`` player whose laptop
hosts), marks the table finished when its player leaves without handing it over
(:meth:`Leaving.left`: the game ends for everyone, as the dialog said), and carries
out a headless host's stop signal (:meth:`Leaving.signalled`: hand over when a laptop
can take the table, else stop as before).

After a handover :func:`keep_seat_there` keeps the host's own seat in the seat store at
the address of the laptop that hosts now (its seat there is held for it like any
player's who dropped, and a bot covers it after the grace), so ``sorry-lan join``
takes it back, by that address as by the table's id; :func:`handed_over_lines` says
where the table went and how to come back.

It decides nothing about who hosts next (the host core does), does not close the
table (the command's ``HostedTable`` does) and prints nothing itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sorry_lan.i18n import _
from sorry_lan.tui.state import HandOver

if TYPE_CHECKING:
    from sorry_lan.net.host import HostServer
    from sorry_lan.net.hosted import HostedTable
    from sorry_lan.net.seats import SeatStore


class Leaving:
    """The leaving of the table ``hosted()`` gives (None: this machine hosts none now)."""

    def __init__(self, hosted: Callable[[], HostedTable | None]) -> None:
        self._hosted = hosted
        self.handed = False  # the table was handed over (it goes on at another laptop)

    def _serving(self) -> HostedTable | None:
        hosted = self._hosted()
        return None if hosted is None or hosted.stopped else hosted

    def hosting(self) -> bool:
        """Whether this machine hosts a table now."""
        return self._serving() is not None

    def possible(self) -> bool:
        """Whether a player's laptop is connected that could take the table now."""
        hosted = self._serving()
        return hosted is not None and hosted.server.core.can_hand_over()

    def start(self) -> None:
        """Hand the table over now (the first laptop of the order that is connected)."""
        hosted = self._serving()
        if hosted is not None and hosted.server.handover():
            self.handed = True

    def hand_over(self) -> HandOver:
        """The board's way to hand the table over (see the module docstring)."""
        return HandOver(self.possible, self.start, hosting=self.hosting)

    def left(self) -> None:
        """The player left without handing the table over: it closes finished, the game
        ended for everyone (each told so by the host's ``over`` with no winner)."""
        hosted = self._hosted()
        if hosted is not None and not hosted.has_moved and not self.handed:
            hosted.quit()

    def signalled(self, say: Callable[[str], None]) -> None:
        """A stop signal (Ctrl-C, a kill) at a headless host: hand the table over when a
        laptop can take it, saying so with ``say``; else stop as before."""
        hosted = self._serving()
        if hosted is None:
            return
        if self.possible():
            say(_("stopping: handing the table over to a player's laptop, where the game "
                  "goes on"))
            self.start()
        if not self.handed:
            hosted.stop()


def keep_seat_there(
    seats: SeatStore, server: HostServer, name: str, token: bytes | None, table: str
) -> bool:
    """Keep the seat ``token`` holds at the table ``server`` handed over, at the laptop
    that hosts it now (its addresses and standby port), so that ``sorry-lan join``
    finds it there; False when the table did not move or nothing is known of where."""
    moved = server.moved_to
    if moved is None or token is None:
        return False
    laptop = server.core.electorate.laptops.get(moved[1])
    if laptop is None or not laptop.addrs:
        return False
    seats.forget(token)  # the seat at the old address: that table is gone from there
    return seats.save(name, token, laptop.addrs, laptop.port, table=table)


def handed_over_lines(server: HostServer) -> list[str]:
    """What the command says once its table was handed over: where it went, and that
    ``sorry-lan join`` takes the seat back."""
    moved = server.moved_to
    if moved is None:
        return []
    return [moved_words(server, *moved), handed_over_text()]


def handed_over_text() -> str:
    """What the command says once its player handed the table over and left."""
    return _("You handed the table over; `sorry-lan join` takes your seat back as a player.")


def moved_words(server: HostServer, epoch: int, pid: int) -> str:
    """Where the table went (a headless host that stepped down or handed it over)."""
    player = server.table.players.get(pid)
    who = player.name if player is not None else f"#{pid}"
    laptop = server.core.electorate.laptops.get(pid)
    if laptop is None or not laptop.addrs:
        return _("the table moved to {name}'s laptop; it goes on there").format(name=who)
    shown = f"[{laptop.addrs[0]}]" if ":" in laptop.addrs[0] else laptop.addrs[0]
    return _("the table moved to {name}'s laptop at {address}; it goes on there").format(
        name=who, address=f"{shown}:{laptop.port}"
    )
