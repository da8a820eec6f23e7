"""The finished game's record as a phone's page is sent it, to save on the phone.

:func:`record_frame` turns the whole record the host sent this seat's client (the
same one ``sorry-lan join`` files, ``protocol/RECORD.md``) into one ``record`` frame:
the record file's text, which ``sorry-lan replay`` reads back, and the text form for
people, worded in the current language, each with the file name the page saves it
under.  The frame goes to that seat's page alone, over its own WebSocket, so no
address on the network serves a record, and a page whose laptop closed the table
after the game can still save it.

Pure: it sends nothing, and it does not build or check a record (``sorry_lan.records``
does).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sorry_lan.client.records import RecordBook
from sorry_lan.i18n.recordwords import record_lines
from sorry_lan.records import dump


def record_game(book: RecordBook) -> int | None:
    """The number of the game on the board when its whole record is in (None: not
    yet, or no game ended)."""
    return book.game_number if book.whole_of_game() is not None else None


def file_stem(record: Mapping[str, Any], game: int) -> str:
    """The name a saved record goes by, without its suffix: when the game started
    (UTC, as recorded) and its number at the table, ``sorry-lan-20261208-2015-game-2``."""
    digits = re.sub(r"\D", "", str(record.get("started") or ""))
    stamp = f"{digits[:8]}-{digits[8:12]}-" if len(digits) >= 12 else ""
    return f"sorry-lan-{stamp}game-{game}"


def record_frame(book: RecordBook) -> dict[str, object] | None:
    """The ``record`` frame of the game on the board once its whole record is in
    (None before), its text form in the current language."""
    record = book.whole_of_game()
    if record is None:
        return None
    stem = file_stem(record, book.game_number)
    return {
        "t": "record",
        "game": book.game_number,
        "file": f"{stem}.json",
        "record": dump(record).decode(),
        "text_file": f"{stem}.txt",
        "text": "\n".join(record_lines(record)) + "\n",
    }
