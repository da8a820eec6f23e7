"""What the host tells the table about who hosts next (protocol version 4).

:func:`succession` builds the ``succession`` message of a table as it stands: its id
and epoch, the host's own seat, the takeover delay, the order of the laptops
(``authority/electorate.py``), the table's settings (the PIN's derived key, never the
PIN; whether it was seeded, never the seed), every seat with its token's verifier (the
sha256 the table keeps instead of the token: never a token) or its bot's strength,
and the current game's chat so far, the newest lines that fit one frame.
:func:`without_chat` is what decides whether it is to be sent again: everything but
the chat (a chat line alone does not make the host resend it: every connection hears
each line as it is said).  :func:`moved` is the news a connection on an older version
is told when the table moves to another laptop, and :func:`moved_line` its chat line
in one player's language.

Pure functions of the table and what they are given: nothing here sends anything or
decides when to, and nothing here has words in any language but English (the host's
:attr:`~sorry_lan.authority.limits.HostOptions.words` is given them).
"""

from __future__ import annotations

import ipaddress
from dataclasses import replace

from sorry_lan.authority.electorate import Electorate
from sorry_lan.authority.limits import Words
from sorry_lan.authority.table import Table
from sorry_lan.codes import Moved, Said
from sorry_lan.rules.board import Colour
from sorry_lan.wire import limits as L
from sorry_lan.wire import messages as m
from sorry_lan.wire.succession import ChatLine, Laptop, SeatRecord, TableSettings
from sorry_lan.wire.trim import fit_succession
from sorry_lan.wire.vocab import clip_text

Built = tuple[m.Succession, bytes]  # the message (its chat perhaps cut) and its frame


def _ms(seconds: float, low: int = 0) -> int:
    return max(low, min(L.MS_MAX, round(seconds * 1000)))


def settings(table: Table, pin_key: bytes | None) -> TableSettings:
    """The table's ``config`` record (times in milliseconds, clamped to the wire's)."""
    config = table.config
    name = (config.title or "").strip()[: L.TABLE_NAME_MAX].strip() or None
    return TableSettings(
        name=name,
        variant=config.variant,
        seats=config.seats,
        turn_timeout_ms=None if config.turn_timeout is None else _ms(config.turn_timeout, 1),
        grace_ms=_ms(config.grace),
        bot_delay_ms=_ms(config.bot_delay),
        bot_level=config.bot_level,
        bot_budget_ms=None if config.bot_budget is None else _ms(config.bot_budget, 1),
        pin_verifier=pin_key,
        seeded=config.seed is not None,
        auto_start=config.auto_start,
        hints=config.hints,
    )


def seats(table: Table) -> tuple[SeatRecord, ...]:
    """Every seat by colour: a person's or a program's with its token's verifier, a
    host's bot with its strength (a person without a token, which nobody can claim,
    is left out)."""
    out = []
    for p in sorted(table.players.values(), key=lambda p: (p.colour, p.pid)):
        if p.bot:
            out.append(SeatRecord(p.pid, Colour(p.colour), None, p.level))
        elif p.token_hash is not None:
            out.append(SeatRecord(p.pid, Colour(p.colour), bytes.fromhex(p.token_hash), None))
    return tuple(out)


def chat(table: Table) -> tuple[ChatLine, ...]:
    """The current game's chat so far, each line from the seat now on its colour (a
    line whose colour nobody holds any more is left out, as in the chat so far)."""
    out = []
    for colour, text in table.chat[-L.CHAT_KEPT_MAX :]:
        speaker = table.by_colour(colour)
        if speaker is not None:
            out.append(ChatLine(speaker.pid, text))
    return tuple(out)


def hosting_seat(table: Table, seat: int | None = None) -> int | None:
    """The seat of the player whose laptop hosts ``table``: ``seat`` (a successor's own,
    kept apart from the owner's lobby rights) while it is seated, else the owner's;
    None for a headless first host (nobody plays on its machine)."""
    if seat is not None and seat in table.players:
        return seat
    return table.owner if table.owner in table.players else None


def succession(
    table: Table, electorate: Electorate, *, table_id: str, epoch: int, delay: float,
    pin_key: bytes | None, seat: int | None = None,
) -> Built:
    """The ``succession`` message of ``table`` now, and its frame (see the module);
    ``host`` names :func:`hosting_seat` (``seat``: the successor's own)."""
    order = tuple(
        Laptop(x.pid, x.addrs, x.port) for x in electorate.listed(table)
    )[: L.ORDER_MAX]
    message = m.Succession(
        table=table_id,
        epoch=epoch,
        host=hosting_seat(table, seat),
        delay=max(1, min(L.TIMEOUT_MAX, round(delay))),
        order=order,
        config=settings(table, pin_key),
        seats=seats(table),
        chat=chat(table),
    )
    return fit_succession(message)


def without_chat(message: m.Succession) -> m.Succession:
    """Everything in ``message`` that makes the host send it again when it changes."""
    return replace(message, chat=())


def moved(name: str | None, addr: str | None, port: int | None) -> Said:
    """The news a connection on protocol version 1-3 is told when the table moves to
    ``name``'s laptop, at ``addr`` and ``port`` (each None when unknown)."""
    if addr is None or port is None:
        return Moved.ELSEWHERE() if name is None else Moved.TO_LAPTOP(name=name)
    shown = f"[{addr}]" if ipaddress.ip_address(addr).version == 6 else addr
    address = f"{shown}:{port}"
    if name is None:
        return Moved.ELSEWHERE_AT(address=address)
    return Moved.TO_LAPTOP_AT(name=name, address=address)


def moved_line(news: Said, lang: str | None, words: Words) -> m.Chat:
    """The chat line (from nobody) that tells ``news`` to a player who reads ``lang``
    (None: it named no language), worded by ``words`` and clipped to fit a line."""
    return m.Chat(pid=None, text=clip_text(words(news, lang), L.CHAT_MAX))
