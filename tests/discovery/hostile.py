"""Hostile laptops for the takeover tests: what ``board_bot.py --claim/--forge-hand`` do.

* :func:`claim`: this laptop's standby, asked by a voter during an election, does not
  count the vote: it welcomes the voter as if it hosted the table and sends a forged
  ``succession``: ``out-of-turn`` names another seat as the host at the next epoch (the
  voter asked this laptop, someone else answers), ``old-epoch`` names this laptop at
  epoch 1 once the table is at a later one.  The voters must refuse it and go on.
* :func:`forge_hand`: the ``reveal`` this laptop sends a new host in play for points
  carries a hand with one card changed; the new host must refuse it (the commitment
  does not match) and deal that seat afresh.
* :func:`main`: ``python tests/discovery/hostile.py hello ADDR PORT``: say ``hello``
  with a made-up seat token at a laptop's standby and print its answer as JSON (a
  forged token verifier: the standby must turn it away, with a reason).

Each says what it did on stderr (``sorry-lan hostile: ...``).  Test code: it never
runs in the product.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import secrets
import sys
from typing import Any

from sorry_lan.client.model import ClientModel
from sorry_lan.net import standby
from sorry_lan.net.client import GameClient
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import Decoder, encode
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS
from sorry_lan.wire.session import HostSession

CLIENTS: list[GameClient] = []  # this process's client (board_bot puts it here)


def _say(*words: object) -> None:
    print("sorry-lan hostile: " + " ".join(str(w) for w in words), file=sys.stderr, flush=True)


def _forged(model: ClientModel, hello: m.Hello, mode: str) -> tuple[int, m.Succession] | None:
    """The seat ``hello`` speaks for and the succession to send it, or None (no claim)."""
    succession = model.succession
    if succession is None or hello.token is None or model.pid is None:
        return None
    verifier = hashlib.sha256(hello.token).digest()
    pid = next((s.pid for s in succession.seats if s.verifier == verifier), None)
    if pid is None:
        return None
    if mode == "old-epoch":
        if succession.epoch < 2:
            return None  # not yet: the table is at its first epoch
        return pid, dataclasses.replace(succession, epoch=1, host=model.pid)
    others = [lap.pid for lap in succession.order if lap.pid not in (model.pid, pid)]
    host = others[-1] if others else pid
    return pid, dataclasses.replace(succession, epoch=succession.epoch + 1, host=host)


def claim(mode: str) -> None:
    """Make this process's standby claim the table (see the module docstring)."""
    real = standby._Greeter.data_received

    def data_received(self: standby._Greeter, data: bytes) -> None:
        if not CLIENTS or self.session.closed or self.owner._taken:
            real(self, data)
            return
        # Read the greeting on a session of its own first: a greeting not to claim on
        # goes to the real standby untouched (its own session must see it once).
        sent = [msg for msg in HostSession().receive_data(bytes(self.received) + data)
                if isinstance(msg, m.Hello)]
        forged = _forged(CLIENTS[0].model, sent[0], mode) if sent else None
        if forged is None:
            real(self, data)
            return
        session = self.session
        self.received += data
        list(session.receive_data(data))  # (its session past the hello, to welcome it)
        pid, succession = forged
        session.welcome(pid, sent[0].token)
        session.send(succession)
        self.answered = True
        self._flush()
        _say("claimed", mode, "epoch", succession.epoch, "host", succession.host,
             "to pid", pid)

    standby._Greeter.data_received = data_received  # type: ignore[method-assign]


def forge_hand() -> None:
    """Change one card of every ``reveal`` this process sends (see the docstring)."""
    real = ClientModel.send

    def send(self: ClientModel, msg: m.Message) -> None:
        if isinstance(msg, m.Reveal) and msg.hand:
            first = int(msg.hand[0])
            other = next(c for c in (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13) if c != first)
            hand = (type(msg.hand[0])(other), *msg.hand[1:])
            _say("forged reveal", [int(c) for c in msg.hand], "->", [int(c) for c in hand])
            msg = dataclasses.replace(msg, hand=hand)
        real(self, msg)

    ClientModel.send = send  # type: ignore[method-assign]


async def hello(address: str, port: int, timeout: float = 5.0) -> dict[str, Any]:
    """Say hello with a made-up token at ``address:port``: the first answer."""
    reader, writer = await asyncio.open_connection(address, port)
    token = secrets.token_bytes(16)  # a seat token's size, made up
    writer.write(encode(m.Hello(versions=SUPPORTED_VERSIONS, software=SOFTWARE,
                                name="mallory", token=token)))
    decoder = Decoder()
    try:
        async with asyncio.timeout(timeout):
            while data := await reader.read(65536):
                for msg in decoder.feed(data):
                    reason = getattr(msg, "reason", None)
                    return {"type": msg.TYPE.value, "text": getattr(msg, "text", None),
                            "reason": None if reason is None else str(reason.value)}
    finally:
        writer.close()
    return {"type": "closed"}


def main() -> None:
    _word, address, port = sys.argv[1:4]
    answer = asyncio.run(hello(address, int(port)))
    _say("hello with a forged token at", f"{address}:{port}:", answer)
    print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
