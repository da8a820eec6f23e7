"""A player whose client speaks protocol version 2 only: a test tool, not the product.

Run inside a network namespace: ``python tests/discovery/v2_player.py HOST PORT NAME``.
It joins with the wire library's client session offering versions 1 and 2 (what a
sorry-lan from before issue 19 speaks), plays a random legal move whenever moves are
offered, and prints one JSON object per line on stdout: ``welcome`` (version, pid),
``move`` (the state id it answered), ``chat`` (the host's lines), ``bye`` (reason),
``over`` (then it exits 0).  When the host says the table moved ("The table moved to
X's laptop at ADDR:PORT; join it there to play on.") and then ``bye`` ``shutdown``,
it does what a person with that client would do: joins ADDR:PORT with its seat token
(``rejoin``; a ``busy`` answer, a table not served yet, is tried again in half a
second), and plays on.  Any other end of the connection exits 1.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import time

from sorry_lan.wire import messages as m
from sorry_lan.wire.session import ClientSession
from sorry_lan.wire.vocab import RefuseReason

VERSIONS = (1, 2)
MOVED = re.compile(r"The table moved to .* at \[?([0-9A-Fa-f.:]+?)\]?:(\d+);")
T0 = time.monotonic()


def emit(event: str, **fields: object) -> None:
    print(json.dumps({"event": event, "t": round(time.monotonic() - T0, 3), **fields}),
          flush=True)


Moved = tuple[str, int]  # where the table went: address, port


async def play(
    host: str, port: int, name: str, token: bytes | None
) -> tuple[bool, Moved | None, bytes | None]:
    """One connection: whether the game ended, where the table moved (None: nowhere
    said), and the seat token."""
    reader, writer = await asyncio.open_connection(host, port)
    session = ClientSession(name, token=token, versions=VERSIONS)
    session.join()
    writer.write(session.data_to_send())
    moved: Moved | None = None
    pick = random.Random(7)
    try:
        while not session.closed:
            data = await reader.read(65536)
            if not data:
                emit("closed")
                break
            for msg in session.receive_data(data):
                match msg:
                    case m.Welcome():
                        emit("welcome", version=msg.version, pid=msg.pid)
                    case m.Refuse():
                        emit("refused", reason=str(msg.reason), text=msg.text)
                        if msg.reason is RefuseReason.BUSY:  # not hosting yet: again soon
                            moved = (host, port)
                    case m.LegalMoves() if msg.moves:
                        session.choose(pick.choice(msg.moves).id)
                        emit("move", sid=msg.sid)
                    case m.Chat() if msg.pid is None:
                        emit("chat", text=msg.text)
                        found = MOVED.search(msg.text)
                        if found:
                            moved = (found.group(1), int(found.group(2)))
                    case m.GameOver():
                        emit("over", winners=[int(c) for c in msg.winners])
                        return True, None, session.token
                    case m.Bye():
                        emit("bye", reason=str(msg.reason))
            writer.write(session.data_to_send())
    finally:
        writer.close()
    return False, moved, session.token


async def main(host: str, port: int, name: str) -> int:
    token: bytes | None = None
    while True:
        over, moved, token = await play(host, port, name, token)
        if over:
            return 0
        if moved is None:
            return 1
        if moved == (host, port):
            await asyncio.sleep(0.5)  # a busy table: the person tries again in a moment
        host, port = moved
        emit("rejoin", host=host, port=port)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3])))
