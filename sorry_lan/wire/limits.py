"""Protocol constants: the version, the framing, and every size limit.

Each number here is normative: protocol/SPEC.md quotes them, and both the encoder
(refusing to send more) and the decoder (refusing to accept more) apply them.  This
module holds values only; it checks nothing itself.
"""

from __future__ import annotations

from typing import Final

import sorry_lan

#: The protocol version a host advertises on the LAN: the oldest it speaks, so that
#: every client speaking it may try (``hello`` then settles on the highest in common).
PROTOCOL_VERSION: Final = 1
#: Every protocol version this code can speak, oldest first.  Version 2 adds the
#: ``profile`` message and the ``player`` record's language (SPEC sections 3 and 7);
#: version 3 the ``record`` message, the game record sent to everyone (SPEC section 7);
#: version 4 succession, the table outliving its host (``offer``, ``succession``,
#: ``commit``, ``reveal``, ``handover``: SPEC section 13); version 5 settling (a state
#: shown once enough laptops hold it, ``settled``; a vote's ``seen``: SPEC section 13);
#: version 6 trading colours in the lobby (``swap``, ``swap_answer``, ``lobby.swaps``)
#: and more time for a turn (``more_time``, ``time``).
SUPPORTED_VERSIONS: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6)
SETTLE_VERSION: Final = 5
SWAP_VERSION: Final = 6
MORE_TIME_VERSION: Final = 6
#: What we send as ``software`` in hello / spectate / welcome.
SOFTWARE: Final = f"sorry-lan/{sorry_lan.__version__}"
#: The TCP port a host listens on, and a client dials, when none is given.
DEFAULT_PORT: Final = sorry_lan.DEFAULT_PORT

#: Bytes of the big-endian length prefix in front of every frame.
HEADER_SIZE: Final = 4
#: Largest frame body (the msgpack map) accepted or sent, in bytes.
MAX_FRAME: Final = 64 * 1024

# Strings, in characters (code points).
NAME_MAX: Final = 24
CHAT_MAX: Final = 200
TEXT_MAX: Final = 200  # error and refuse explanations
SOFTWARE_MAX: Final = 40
NOTATION_MAX: Final = 80
LEVEL_MAX: Final = 16
LANG_MAX: Final = 16  # a language code such as "el" or "pt-BR"
ADDR_MAX: Final = 45  # an IP literal (the longest IPv6 text form), without a zone
TABLE_NAME_MAX: Final = 64  # a table's name in ``succession.config``
TABLE_ID_MIN: Final = 4  # a table id (``tid``): 4..32 of 0-9, a-z
TABLE_ID_MAX: Final = 32

# Arrays.
VERSIONS_MAX: Final = 8
PLAYERS_MAX: Final = 8
MOVES_MAX: Final = 512
EVENTS_MAX: Final = 64
HAND_MAX: Final = 8
ADDRS_MAX: Final = 8  # the addresses one laptop offers
ORDER_MAX: Final = PLAYERS_MAX  # laptops in the succession order
SEATS_MAX: Final = PLAYERS_MAX  # seat verifier records in ``succession``
CHAT_KEPT_MAX: Final = 100  # chat lines of the game so far in ``succession``

# Binary fields, in bytes.
TOKEN_SIZE: Final = 16
NONCE_SIZE: Final = 16
MAC_SIZE: Final = 32
DIGEST_SIZE: Final = 32  # sha256: a seat token's verifier, a hand commitment
SALT_SIZE: Final = 16  # a hand commitment's salt
PIN_KEY_SIZE: Final = 32  # the PIN's derived key (``wire.auth.pin_key``)

# The game record (``record`` messages): its JSON (protocol/RECORD.md) compressed with
# zlib is cut into at most RECORD_PARTS_MAX parts of at most RECORD_PART_MAX bytes
# (192 KiB in all: some 9000 turns, where a long game has 300); it inflates to at most
# RECORD_MAX bytes (the record reader's own limit).
RECORD_PART_MAX: Final = 48 * 1024
RECORD_PARTS_MAX: Final = 4
RECORD_MAX: Final = 4 * 1024 * 1024

# Integer ranges.
U32_MAX: Final = 2**32 - 1
PID_MAX: Final = 255
VERSION_MAX: Final = 65535
MOVE_ID_MAX: Final = 65535
SCORE_MAX: Final = 1_000_000
COUNT_MAX: Final = 45  # cards in a pile
SPECTATORS_MAX: Final = 1000
TIMEOUT_MAX: Final = 3600
EPOCH_MAX: Final = U32_MAX
PORT_MAX: Final = 65535
MS_MAX: Final = TIMEOUT_MAX * 1000  # a table timer in milliseconds

# Limits handed to msgpack's Unpacker, so that no single value can be large even
# before field validation runs.  Strings are limited in UTF-8 bytes here (4 per
# character at most), then in characters by the field specs.
UNPACK_MAX_STR: Final = 4 * CHAT_MAX
UNPACK_MAX_BIN: Final = RECORD_PART_MAX  # a record's part; every other bin is 64 at most
UNPACK_MAX_ARRAY: Final = MOVES_MAX
UNPACK_MAX_MAP: Final = 32
