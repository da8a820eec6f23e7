"""The find screen's live list of games, fed by LAN discovery.

:class:`GameFinder` follows a :class:`~sorry_lan.discovery.GameBrowser` and keeps
``UiState.found`` in step with it: games appear, change and disappear as the browser
reports them; a game that cannot be joined stays listed with its reason.  When nothing
has turned up after ``quiet_after`` seconds it says so and explains ``--address``
(multicast is often blocked); given a ``diagnose`` (the network doctor's quick checks)
it then runs it and adds the likeliest reason.  When discovery cannot start at all, the find screen
says why and the player can still type an address.  Given a seat store, it marks the
tables where the user holds a seat ("your seat": Enter takes it back); a full table
or a game under way offers to watch ("Enter watches").

It owns the zeroconf instance it was given a factory for, and closes it.  It joins
nothing and never sends game traffic; the liveness probe is the browser's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from sorry_lan.discovery import (
    ChangeKind,
    DiscoveryError,
    GameBrowser,
    GameEvent,
    current_tables,
    make_zeroconf,
    nothing_found_message,
)
from sorry_lan.discovery import FoundGame as Advert
from sorry_lan.discovery.advice import likely_reason
from sorry_lan.discovery.doctor import Checkup
from sorry_lan.i18n import _, ngettext, words
from sorry_lan.i18n.coded import say
from sorry_lan.net.seats import SeatStore

if TYPE_CHECKING:
    from zeroconf.asyncio import AsyncZeroconf

from .state import NO_GAME_YET, FoundGame, UiState

log = logging.getLogger(__name__)

QUIET_AFTER = 3.0


class Redraw(Protocol):
    def invalidate(self) -> None: ...


def address_of(game: Advert) -> str:
    """``host:port`` to connect to (IPv6 in brackets)."""
    host = game.address or (game.addresses[0] if game.addresses else "")
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{game.port}"


def row_for(game: Advert, mine: bool = False) -> FoundGame:
    """One find-screen row: name, address, details and, if any, why it cannot be joined;
    ``mine``: the user holds a seat there (marked "your seat", and joinable even when
    the game is under way).  The details begin with what decides what Enter does (your
    seat, why it cannot be joined, a PIN asked), then the host, rules and seats: a row
    too long for the screen loses its least useful end."""
    status: list[str] = []
    mine = mine and (game.joinable or game.watchable)
    if mine:
        status.append(_("your seat"))
        if game.reason is not None:
            status.append(say(game.reason))
    elif game.watchable and game.reason is not None:
        status.append(_("{why}: Enter watches").format(why=say(game.reason)))
    elif game.reason is not None:
        status.append(_("cannot join: {why}").format(why=say(game.reason)))
    details: list[str] = []
    if game.ad is not None:
        if game.ad.pin_required:
            status.append(_("PIN"))
        details.append(_("host {name}").format(name=game.ad.host_player))
        details.append(words.variant_title(game.ad.variant))
        total = game.ad.seats_total
        details.append(
            ngettext("{taken}/{total} seat", "{taken}/{total} seats", total).format(
                taken=game.ad.seats_taken, total=total
            )
        )
    why = "" if game.reason is None else say(game.reason)
    return FoundGame(
        title=game.name,
        address=address_of(game),
        detail=" · ".join(status + details),
        joinable=game.joinable or mine,
        watch=game.watchable and not mine,
        mine=mine,
        why=why,
    )


class GameFinder:
    """Keeps the find screen's list live (see the module docstring)."""

    def __init__(
        self,
        state: UiState,
        view: Redraw | None = None,
        *,
        make_zc: Callable[[], AsyncZeroconf] = make_zeroconf,
        quiet_after: float = QUIET_AFTER,
        browser_options: dict[str, object] | None = None,
        seats: SeatStore | None = None,
        name: str | None = None,
        diagnose: Callable[[], Awaitable[Checkup]] | None = None,
    ) -> None:
        self.state = state
        self.seats = seats  # to mark the tables where the user holds a seat
        self.name = name  # ... under this name (None: any)
        self.view = view
        self.make_zc = make_zc
        self.quiet_after = quiet_after
        self.browser_options = browser_options or {}
        self.games: dict[str, Advert] = {}
        self.order: list[str] = []  # service names, in the order of state.found
        self._zc: AsyncZeroconf | None = None
        self._browser: GameBrowser | None = None
        self._quiet: asyncio.TimerHandle | None = None
        self._error: str | None = None  # why discovery could not start
        self.diagnose = diagnose
        self.checkup: Checkup | None = None  # what the diagnosis found, once it is done
        self._diagnosis: asyncio.Task[None] | None = None
        state.relabel.append(self.relabel)

    def _redraw(self) -> None:
        if self.view is not None:
            self.view.invalidate()

    async def start(self) -> None:
        st = self.state
        st.searching = True
        st.find_message = ""
        try:
            self._zc = self.make_zc()
            self._browser = GameBrowser(
                self._zc,
                on_change=self._on_change,
                **self.browser_options,  # type: ignore[arg-type]
            )
            await self._browser.async_start()
        except (DiscoveryError, OSError) as exc:
            st.searching = False
            self._error = str(exc)
            st.find_message = self._error_message()
            await self._close_zc()
        else:
            loop = asyncio.get_running_loop()
            self._quiet = loop.call_later(self.quiet_after, self._nothing_yet)
        self._redraw()

    def _error_message(self) -> str:
        return _(
            "Cannot search the network: {error}\n"
            "Type the host's address (HOST:PORT) below, or run\n"
            "    {command}"
        ).format(error=self._error, command="sorry-lan join --address HOST:PORT")

    def relabel(self) -> None:
        """The rows and the message again, in the language chosen since."""
        if self._error is not None:
            self.state.find_message = self._error_message()
        elif self.games or not self.state.searching:
            self._publish()

    def _nothing_yet(self) -> None:
        self._quiet = None
        st = self.state
        st.searching = False
        if not self.games:
            st.find_message = self._nothing_message()
            self._redraw()
            if self.diagnose is not None:
                self._diagnosis = asyncio.get_running_loop().create_task(self._diagnose())

    async def _diagnose(self) -> None:
        assert self.diagnose is not None
        try:
            self.checkup = await self.diagnose()
        except Exception:  # a diagnosis must never take the find screen down
            log.exception("the network checks failed")
            return
        if not self.games and not self.state.searching:
            self.state.find_message = self._nothing_message()
            self._redraw()

    def _nothing_message(self) -> str:
        reason = likely_reason(self.checkup) if self.checkup is not None else None
        return nothing_found_message(self.quiet_after, reason=reason)

    def _on_change(self, event: GameEvent) -> None:
        game = event.game
        if event.kind is ChangeKind.REMOVED:
            self.games.pop(game.service_name, None)
        else:
            self.games[game.service_name] = game
        self._publish()

    def _publish(self) -> None:
        st = self.state
        # Keep the same game selected when others come and go.
        chosen = self.order[st.found_selected] if st.found and self.order else None
        tables = current_tables(self.games.values())  # a table that moved: its new host
        ordered = sorted(tables, key=lambda g: (g.name.casefold(), g.service_name))
        st.found = [row_for(g, self._mine(g)) for g in ordered]
        self.order = [g.service_name for g in ordered]
        if chosen in self.order:
            st.found_selected = self.order.index(chosen)
        else:
            st.found_selected = min(st.found_selected, max(0, len(st.found) - 1))
        if st.found:
            st.find_message = ""
            if st.notice in (NO_GAME_YET, _(NO_GAME_YET)):
                st.notice = ""
        elif not st.searching:
            st.find_message = self._nothing_message()
        self._redraw()

    def advert_at(self, host: str, port: int) -> Advert | None:
        """The game listed at ``host``/``port`` (the one a join from this screen goes
        to), for its LAN name and table id; None when none is."""
        wanted = host.strip("[]").lower()
        for game in self.games.values():
            addresses = {a.lower() for a in (game.address, *game.addresses) if a}
            if game.port == port and wanted in addresses:
                return game
        return None

    def _mine(self, game: Advert) -> bool:
        return self.seats is not None and self.seats.at_game(game, self.name) is not None

    async def _close_zc(self) -> None:
        if self._zc is not None:
            zc, self._zc = self._zc, None
            with contextlib.suppress(Exception):
                await zc.async_close()

    async def close(self) -> None:
        """Stop browsing and close zeroconf (goodbyes are the host's, not ours)."""
        if self._quiet is not None:
            self._quiet.cancel()
            self._quiet = None
        if self._diagnosis is not None:
            diagnosis, self._diagnosis = self._diagnosis, None
            diagnosis.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await diagnosis
        if self._browser is not None:
            browser, self._browser = self._browser, None
            try:
                await browser.async_close()
            except Exception:
                log.exception("closing the game browser failed")
        await self._close_zc()
