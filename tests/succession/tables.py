"""A table's ``succession`` message for the succession tests: three laptops (pids 1-3,
tokens :data:`TOKENS`) at a host whose own seat is pid 0, their standbys on loopback
addresses of their own, the takeover delay 15 s and the seat grace 60 s."""

from __future__ import annotations

from sorry_lan.rules import Variant
from sorry_lan.rules.board import Colour
from sorry_lan.succession.standby import verifier
from sorry_lan.wire import messages as m
from sorry_lan.wire.succession import ChatLine, Laptop, SeatRecord, TableSettings

TABLE = "t0able1d"
TOKENS = {pid: bytes([pid + 1]) * 16 for pid in range(4)}
LAPTOPS = tuple(Laptop(pid, (f"127.0.0.{pid + 1}",), 7000 + pid) for pid in (1, 2, 3))


def settings(variant: Variant = Variant.STANDARD, grace_ms: int = 60_000) -> TableSettings:
    return TableSettings(
        name="Ann's table", variant=variant, seats=4, turn_timeout_ms=None,
        grace_ms=grace_ms, bot_delay_ms=0, bot_level="greedy", bot_budget_ms=None,
        pin_verifier=None, seeded=False, auto_start=False,
    )


def succession(
    epoch: int = 1,
    host: int | None = 0,
    order: tuple[Laptop, ...] = LAPTOPS,
    *,
    variant: Variant = Variant.STANDARD,
    chat: tuple[ChatLine, ...] = (),
) -> m.Succession:
    seats = tuple(
        SeatRecord(pid=pid, colour=Colour(pid), verifier=verifier(TOKENS[pid]), level=None)
        for pid in range(4)
    )
    return m.Succession(
        table=TABLE, epoch=epoch, host=host, delay=15, order=order,
        config=settings(variant), seats=seats, chat=chat,
    )
