"""What a game advertises about itself over mDNS, and how that is read back.

`GameAd` is the host's side: the facts published in the TXT record of the
`_sorry-lan._tcp.local.` service (`pv`, `game`, `host`, `var`, `seats`, `state`,
`pin`, the optional `tid`: the table's id, which a player's seat belongs to, and
the optional `ep`: the epoch of the table's host, which grows each time the table
moves to another player's laptop, protocol/SPEC.md section 13), validated when
built so that a host never publishes something the browsers would reject.
`parse_txt` is the player's side: it turns the TXT properties of *any* responder
on the network (possibly buggy, garbled or hostile) into a `GameAd`, or raises
`AdvertError`; it never
raises anything else.  `FoundGame` is one entry of the list a player sees;
`current_tables` keeps each table once, at its newest host.

This module does no networking and does not decide liveness: whether a host
actually answers is the browser's business (see `browser.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sorry_lan.codes import Unjoinable as Unjoinable  # defined with its words there
from sorry_lan.errors import SorryLanError
from sorry_lan.i18n import _, ngettext, words
from sorry_lan.i18n.coded import say
from sorry_lan.rules import Phase

# The protocol versions come from the wire protocol.
from sorry_lan.wire.limits import PROTOCOL_VERSION, SUPPORTED_VERSIONS

SERVICE_TYPE = "_sorry-lan._tcp.local."
"""The DNS-SD service type every sorry-lan host registers."""


MAX_GAME_NAME_CHARS = 40
MAX_GAME_NAME_BYTES = 56  # leaves room for the "-NN" a name clash appends (63-byte label)
MAX_PLAYER_NAME_CHARS = 32
MAX_PLAYER_NAME_BYTES = 96
MAX_SEATS = 16
MAX_PROTOCOL_VERSION = 65535

_VARIANT_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,15}")
_SEATS_RE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})")
_PV_RE = re.compile(r"[0-9]{1,5}")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")

# TXT keys: short, since every byte is multicast on each announcement.
K_PROTOCOL = "pv"
K_GAME = "game"
K_HOST = "host"
K_VARIANT = "var"
K_SEATS = "seats"
K_STATE = "state"
K_PIN = "pin"
K_TABLE = "tid"  # optional: the table's id (older hosts leave it out)
K_EPOCH = "ep"  # optional: the epoch of the table's host (absent: 1)

MAX_EPOCH = 2**32 - 1
_EPOCH_RE = re.compile(r"[1-9][0-9]{0,9}")

_TABLE_ID_RE = re.compile(r"[0-9a-z]{4,32}")


class AdvertError(SorryLanError, ValueError):
    """A game advertisement is invalid (when built) or unreadable (when parsed)."""


def _check_text(what: str, value: object, max_chars: int, max_bytes: int) -> str:
    if not isinstance(value, str):
        raise AdvertError(f"{what} must be a string, not {type(value).__name__}")
    if not value.strip():
        raise AdvertError(f"{what} must not be empty")
    if value != value.strip():
        raise AdvertError(f"{what} must not start or end with spaces: {value!r}")
    if _CONTROL_RE.search(value):
        raise AdvertError(f"{what} must not contain control characters: {value!r}")
    if len(value) > max_chars or len(value.encode("utf-8")) > max_bytes:
        raise AdvertError(f"{what} is too long (at most {max_chars} characters): {value!r}")
    return value


@dataclass(frozen=True)
class GameAd:
    """The advertised facts about one hosted game; validated on construction.

    Raises `AdvertError` for a bad field (empty or over-long names, control
    characters, seats out of range, unknown state).  It does not know the
    host's addresses or port: those go in the SRV/A records, not the TXT.
    """

    game_name: str
    host_player: str
    seats_total: int
    seats_taken: int = 1
    variant: str = "standard"
    state: Phase = Phase.LOBBY
    pin_required: bool = False
    protocol_version: int = PROTOCOL_VERSION
    table_id: str | None = None  # the table's id: a seat belongs to it, not to an address
    epoch: int = 1  # the epoch of the table's host: 1 for its first, +1 at each move

    def __post_init__(self) -> None:
        _check_text("game name", self.game_name, MAX_GAME_NAME_CHARS, MAX_GAME_NAME_BYTES)
        _check_text(
            "host player name", self.host_player, MAX_PLAYER_NAME_CHARS, MAX_PLAYER_NAME_BYTES
        )
        if not isinstance(self.variant, str) or not _VARIANT_RE.fullmatch(self.variant):
            raise AdvertError(
                f"variant must be 1-16 of a-z, 0-9, '-' (starting with a letter/digit): "
                f"{self.variant!r}"
            )
        for what, n in (("seats_total", self.seats_total), ("seats_taken", self.seats_taken)):
            if isinstance(n, bool) or not isinstance(n, int):
                raise AdvertError(f"{what} must be an int, not {type(n).__name__}")
        if not 1 <= self.seats_total <= MAX_SEATS:
            raise AdvertError(f"seats_total must be 1..{MAX_SEATS}, not {self.seats_total}")
        if not 0 <= self.seats_taken <= self.seats_total:
            raise AdvertError(f"seats_taken must be 0..{self.seats_total}, not {self.seats_taken}")
        try:
            object.__setattr__(self, "state", Phase(self.state))
        except ValueError:
            raise AdvertError(f"state must be lobby, playing or finished: {self.state!r}") from None
        if not isinstance(self.pin_required, bool):
            raise AdvertError("pin_required must be a bool")
        pv = self.protocol_version
        if isinstance(pv, bool) or not isinstance(pv, int) or not 0 <= pv <= MAX_PROTOCOL_VERSION:
            raise AdvertError(f"protocol_version must be 0..{MAX_PROTOCOL_VERSION}: {pv!r}")
        tid = self.table_id
        if tid is not None and not (isinstance(tid, str) and _TABLE_ID_RE.fullmatch(tid)):
            raise AdvertError(f"table_id must be 4-32 of 0-9, a-z: {tid!r}")
        ep = self.epoch
        if isinstance(ep, bool) or not isinstance(ep, int) or not 1 <= ep <= MAX_EPOCH:
            raise AdvertError(f"epoch must be 1..{MAX_EPOCH}: {ep!r}")

    def to_txt(self) -> dict[str, str]:
        """The TXT properties to publish (all values short UTF-8 strings)."""
        return {
            K_PROTOCOL: str(self.protocol_version),
            K_GAME: self.game_name,
            K_HOST: self.host_player,
            K_VARIANT: self.variant,
            K_SEATS: f"{self.seats_taken}/{self.seats_total}",
            K_STATE: self.state.value,
            K_PIN: "1" if self.pin_required else "0",
            **({} if self.table_id is None else {K_TABLE: self.table_id}),
            **({} if self.epoch == 1 else {K_EPOCH: str(self.epoch)}),
        }


TxtProperties = Mapping[bytes, bytes | None] | Mapping[str, str | None]


def _text_props(props: TxtProperties) -> dict[str, str]:
    """Decode keys/values to str, dropping anything undecodable or value-less."""
    out: dict[str, str] = {}
    for key, value in props.items():
        try:
            k = key.decode("utf-8") if isinstance(key, bytes) else key
            if value is None:
                continue
            v = value.decode("utf-8") if isinstance(value, bytes) else value
        except (UnicodeDecodeError, AttributeError):
            continue
        if isinstance(k, str) and isinstance(v, str):
            out.setdefault(k.lower(), v)
    return out


def parse_protocol_version(props: TxtProperties) -> int | None:
    """The `pv` property as an int, or None when absent or garbled."""
    raw = _text_props(props).get(K_PROTOCOL)
    if raw is None or not _PV_RE.fullmatch(raw):
        return None
    return int(raw)


def parse_txt(props: TxtProperties) -> GameAd:
    """Read a TXT record into a `GameAd`; raises `AdvertError` and nothing else.

    Unknown keys are ignored (a newer host may add some).  The table id
    (``tid``) is optional: an older host's advert has none, and one that is not
    well formed is read as none (the seat is then matched by address); so is
    the epoch (``ep``): absent or not a number 1..2^32-1, it reads as 1.  It does
    not check whether the protocol version is one we speak: the browser does that.
    """
    try:
        text = _text_props(props)
    except Exception as exc:  # a foreign mapping may misbehave in any way
        raise AdvertError(f"unreadable TXT record: {exc!r}") from None

    def need(key: str) -> str:
        if key not in text:
            raise AdvertError(f"TXT record lacks {key!r}")
        return text[key]

    pv = parse_protocol_version(props)
    if pv is None:
        raise AdvertError(f"TXT {K_PROTOCOL!r} missing or not a number")
    seats = _SEATS_RE.fullmatch(need(K_SEATS))
    if seats is None:
        raise AdvertError(f"TXT {K_SEATS!r} is not 'taken/total': {text[K_SEATS]!r}")
    pin = need(K_PIN)
    if pin not in ("0", "1"):
        raise AdvertError(f"TXT {K_PIN!r} must be 0 or 1: {pin!r}")
    state = need(K_STATE)
    if state not in {s.value for s in Phase}:
        raise AdvertError(f"TXT {K_STATE!r} is unknown: {state!r}")
    return GameAd(
        game_name=need(K_GAME),
        host_player=need(K_HOST),
        seats_total=int(seats.group(2)),
        seats_taken=int(seats.group(1)),
        variant=need(K_VARIANT),
        state=Phase(state),
        pin_required=pin == "1",
        protocol_version=pv,
        table_id=tid if (tid := text.get(K_TABLE)) and _TABLE_ID_RE.fullmatch(tid) else None,
        epoch=_epoch(text.get(K_EPOCH)),
    )


def _epoch(raw: str | None) -> int:
    if raw is None or not _EPOCH_RE.fullmatch(raw) or int(raw) > MAX_EPOCH:
        return 1
    return int(raw)


def display_text(value: str, limit: int = MAX_GAME_NAME_CHARS) -> str:
    """A foreign string made safe to print: control characters replaced, length capped."""
    cleaned = _CONTROL_RE.sub("?", value)
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


@dataclass(frozen=True)
class FoundGame:
    """One game seen on the network, as a player's game list shows it.

    `ad` is None when the TXT record could not be read (then `reason` is
    INVALID or NEWER_PROTOCOL and `name` falls back to the mDNS instance
    name).  `joinable` is true only when the advert allows joining *and*
    the host answered the liveness check; `address` is the address that
    answered (connect there).  It holds no connection and goes stale: the
    browser replaces it with a new object whenever anything changes.
    """

    service_name: str
    instance: str
    name: str
    ad: GameAd | None
    addresses: tuple[str, ...]
    port: int
    reason: Unjoinable | None
    address: str | None = None

    @property
    def joinable(self) -> bool:
        return self.reason is None

    @property
    def host_player(self) -> str | None:
        return self.ad.host_player if self.ad else None

    @property
    def variant(self) -> str | None:
        return self.ad.variant if self.ad else None

    @property
    def seats_taken(self) -> int | None:
        return self.ad.seats_taken if self.ad else None

    @property
    def seats_total(self) -> int | None:
        return self.ad.seats_total if self.ad else None

    @property
    def state(self) -> Phase | None:
        return self.ad.state if self.ad else None

    @property
    def pin_required(self) -> bool | None:
        return self.ad.pin_required if self.ad else None

    @property
    def protocol_version(self) -> int | None:
        return self.ad.protocol_version if self.ad else None

    @property
    def table_id(self) -> str | None:
        """The table's id, when its host advertises one (older hosts do not)."""
        return self.ad.table_id if self.ad else None

    @property
    def epoch(self) -> int:
        """The epoch of the table's host (1 when not advertised)."""
        return self.ad.epoch if self.ad else 1

    @property
    def watchable(self) -> bool:
        """Not joinable as a player, but open to watch: a full table, or a game under way."""
        return self.reason in (Unjoinable.FULL, Unjoinable.PLAYING)

    def to_json(self, your_seat: bool = False) -> dict[str, Any]:
        """A JSON-ready dict (for `sorry-lan list --json`); keys are stable.  `your_seat`:
        the user holds a seat at this table (the caller knows; this module does not)."""
        return {
            "name": self.name,
            "instance": self.instance,
            "host_player": self.host_player,
            "variant": self.variant,
            "seats_taken": self.seats_taken,
            "seats_total": self.seats_total,
            "state": self.state.value if self.state else None,
            "pin_required": self.pin_required,
            "protocol_version": self.protocol_version,
            "addresses": list(self.addresses),
            "port": self.port,
            "address": self.address,
            "joinable": self.joinable,
            "reason": self.reason.value if self.reason else None,
            "watchable": self.watchable,
            "table_id": self.table_id,
            "epoch": self.epoch,
            "your_seat": your_seat,
        }

    def describe(self, your_seat: bool = False) -> str:
        """One line in the player's language, e.g.
        `Friday night - host Ann - standard - 2/4 seats - joinable`,
        `... - playing - watch`, or `... - playing - your seat` (see `to_json`)."""
        parts = [display_text(self.name)]
        if self.ad is not None:
            host = display_text(self.ad.host_player, MAX_PLAYER_NAME_CHARS)
            parts.append(_("host {name}").format(name=host))
            parts.append(words.variant_title(self.ad.variant))
            total = self.ad.seats_total
            parts.append(
                ngettext("{taken}/{total} seat", "{taken}/{total} seats", total).format(
                    taken=self.ad.seats_taken, total=total
                )
            )
            if self.ad.pin_required:
                parts.append(_("PIN"))
        if your_seat and (self.reason is None or self.watchable):
            if self.reason is not None:
                parts.append(say(self.reason))
            parts.append(_("your seat"))
        elif self.reason is None:
            parts.append(_("joinable"))
        elif self.watchable:
            parts += [say(self.reason), _("watch")]
        else:
            parts.append(_("not joinable: {why}").format(why=say(self.reason)))
        return " - ".join(parts)


def current_tables(games: Iterable[FoundGame]) -> list[FoundGame]:
    """`games` with each table once: of the adverts of one table id, the one at the
    highest epoch (a table that moved to another laptop is listed at its new host
    only; its old host may still be heard for a while), preferring on a tie one whose
    host answered.  Adverts without a table id (older hosts) are all kept.  The
    order is the input's, each table where its first advert was."""
    listed = list(games)
    chosen: dict[str, FoundGame] = {}
    for game in listed:
        tid = game.table_id
        if tid is not None and (tid not in chosen or _rank(game) > _rank(chosen[tid])):
            chosen[tid] = game
    out: list[FoundGame] = []
    for game in listed:
        tid = game.table_id
        if tid is None:
            out.append(game)
        elif tid in chosen:
            out.append(chosen.pop(tid))
    return out


def _rank(game: FoundGame) -> tuple[int, bool]:
    return game.epoch, game.reason is not Unjoinable.UNREACHABLE


def judge_advert(ad: GameAd, supported: Sequence[int] = SUPPORTED_VERSIONS) -> Unjoinable | None:
    """Why the advert alone rules out joining, or None if it allows it.

    `supported` are the protocol versions we speak (default: the wire module's).
    """
    if ad.protocol_version not in supported:
        if ad.protocol_version > max(supported):
            return Unjoinable.NEWER_PROTOCOL
        return Unjoinable.OLDER_PROTOCOL
    if ad.state is Phase.FINISHED:
        return Unjoinable.FINISHED
    if ad.state is Phase.PLAYING:
        return Unjoinable.PLAYING
    if ad.seats_taken >= ad.seats_total:
        return Unjoinable.FULL
    return None
