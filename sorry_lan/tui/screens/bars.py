"""The two bars around every screen: the top (where, whose turn, the connection) and the
bottom (a notice, and the keys of the table up, fitted to the width).

Fragments only; :func:`build` makes the two windows the frames share.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import Window

from sorry_lan.i18n import _

from .. import cells
from ..footer import fit_hints, footer_hints
from ..state import Link, Screen, link_text
from ..textfit import clip, pad, width
from .parts import Parts, size, text_window
from .tables import SCREENS


def top(parts: Parts) -> StyleAndTextTuples:
    """The top bar: the screen, the game, whose turn, the time left; the connection."""
    st = parts.state
    watching = st.spectating and st.screen is not Screen.FIND
    # Names (the game's title, the player to move) sit in the middle of this row:
    # shown in steady form, so the connection keeps its place in every terminal.
    bits = ["sorry-lan", _("watching") if watching else SCREENS[st.screen].title()]
    if st.game_title:
        bits.append(cells.steady_form(st.game_title))
    if st.screen is Screen.GAME and st.turn is not None:
        turn = cells.steady_form(st.player_name(st.turn))
        bits.append(_("turn: {player}").format(player=turn))
    secs = st.seconds_left()
    if secs is not None and st.screen is Screen.GAME:
        bits.append(_("{n}s left").format(n=secs))
    cols = size()[0]
    link = link_text(st.link)
    quiet = st.quiet_left()
    if quiet is not None:
        link = (
            _("host quiet: another laptop in {n}s") if st.quiet_heir
            else _("host quiet: reconnecting in {n}s")
        ).format(n=quiet)
    # The hint goes with the connection only where it fits whole beside the game's
    # name (the bottom bar's notice says it too); else the state alone shows.
    hinted = f"{link} ({st.link_hint})" if st.link_hint else link
    if width(hinted) + 4 <= cols // 2:
        link = hinted
    link_style = {
        Link.CONNECTED: "class:bar.ok" if quiet is None else "class:bar.warn",
        Link.CONNECTING: "class:bar.warn",
        Link.RECONNECTING: "class:bar.warn",
        Link.LOST: "class:bar.bad",
        Link.OFFLINE: "class:bar",
    }[st.link]
    # The connection always shows (a replay on its own has none: where it is, turn of
    # turns, instead); the left part gives way (ending in an ellipsis).
    right = parts.text(clip(f"● {link} ", max(12, cols // 2), parts.ellipsis))
    rp = st.replay
    if st.screen is Screen.REPLAY and rp is not None and st.link is Link.OFFLINE:
        step = rp.step
        right, link_style = f"{0 if step is None else step.n}/{rp.tape.last_n()} ", "class:bar"
    # Where the row is short (a long name, a wordy language), the game's name goes
    # first, then "sorry-lan": whose turn and the time left stay whole.
    room = cols - width(right) - 1
    for drop in ("title", "brand"):
        if width(" " + " · ".join(bits)) <= room:
            break
        if drop == "title" and st.game_title:
            bits.pop(2)
        elif drop == "brand":
            bits.pop(0)
    left = parts.text(clip(" " + " · ".join(bits), room, parts.ellipsis))
    gap = max(0, cols - width(left) - width(right))
    return [("class:bar", left + " " * gap), (link_style, right)]


def bottom(parts: Parts) -> StyleAndTextTuples:
    """The bottom bar: the notice, if any, and the keys of the table up."""
    st = parts.state
    cols = size()[0]
    hints = [h._replace(key=parts.text(h.key)) for h in footer_hints(st)]
    if not st.notice:
        return [("class:bar", pad(" " + fit_hints(hints, cols - 1), cols))]
    # The keys show beside the notice (at least "? help"); a long notice is cut
    # short (its whole text is in the log).
    notice = parts.text(st.notice)
    keys = fit_hints(hints, max(cols - width(notice) - 4, cols // 3))
    text = " " + clip(notice, max(10, cols - width(keys) - 4), parts.ellipsis) + "  "
    return [("class:bar.warn", text), ("class:bar", pad(keys, cols - width(text)))]


def build(parts: Parts) -> tuple[Window, Window]:
    """The top bar's window and the bottom bar's."""
    return (
        text_window(parts.plain(lambda: top(parts)), height=1),
        text_window(parts.plain(lambda: bottom(parts)), height=1),
    )
