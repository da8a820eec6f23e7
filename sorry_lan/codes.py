"""Every code a user may read, each one member with its English words and their fields.

A failure or news a player reads (a host that cannot start, a journal that cannot be
used, a refusal or an ``error`` a host sends back, a join that fails, the link to the
host dropping, a game on the LAN that cannot be joined) is told by a :class:`Code`: an
enum member whose value is the code (on the wire, where it travels) and whose
:attr:`Code.template` is an English ``str.format`` template with named fields.  A raise
site passes a code and its fields, never a sentence:
``HostError(HostFailure.PORT_IN_USE, port=4000, host=h)``.  :class:`Said` is a code
with its fields; ``str()`` of it, and of a :class:`Coded` error, is the English
sentence.  The player's language comes from :func:`sorry_lan.i18n.coded.say`, which
renders the same template through the catalogs (the gettext msgid is the template)
with the same fields; a field that is itself a code or a :class:`Said` is worded in
the same language.  Where the English says more than the catalogs have words for (an
address, the host's own text), the member's :attr:`Code.english` holds that sentence.

Templates marked ``N_`` are in every catalog (``tests/i18n/test_coded.py`` checks
it); the few not yet translated are listed in :data:`ENGLISH_ONLY` and read in English
in every language until they are.

This module imports nothing of the package but the error base, so every layer may
use it.  It translates nothing itself, and knows nothing of sockets or files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol, Self

from sorry_lan.errors import SorryLanError


def N_(template: str) -> str:
    """``template`` unchanged: marks it for the catalogs (the extractor looks for ``N_``)."""
    return template


def ngettext(singular: str, plural: str) -> tuple[str, str]:
    """A template with a plural, counted by its field ``n``; marks both for the
    catalogs (the extractor looks for the name ``ngettext``)."""
    return singular, plural


class Code(StrEnum):
    """A code a user may read: its value is the code, :attr:`template` its English words
    (with :attr:`plural`, the form for a field ``n`` other than 1).  ``Kind(value)``
    finds a member by its value, as for any enum.

    :attr:`english`, when set, is what a reader of English is shown instead of the
    template: a sentence that says more (an address, the system's reason) than the
    words the catalogs have for the code yet.  It is English only (not extracted)."""

    template: str
    plural: str
    english: str

    def __new__(cls, value: str, template: str | tuple[str, str] = "", english: str = "") -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.template, member.plural = template if isinstance(template, tuple) else (template, "")
        member.english = english
        return member

    def __call__(self, **fields: object) -> Said:
        """This code with its fields."""
        return Said(self, fields)


class Translator(Protocol):
    """What :meth:`Said.render` needs of a translations object (``gettext``'s have it);
    None stands for English, the source language."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


@dataclass(frozen=True)
class Said:
    """A code with the values of its template's fields; ``str()`` is the English."""

    code: Code
    fields: Mapping[str, object] = field(default_factory=dict)

    def render(self, language: Translator | None) -> str:
        """The words in ``language`` (None: English, with the code's :attr:`~Code.english`
        if it has one); fields that are codes are worded in the same language."""
        values = {name: _field(value, language) for name, value in self.fields.items()}
        code = self.code
        count = self.fields.get("n")
        if language is None:
            many = code.plural and count != 1
            template = code.english or (code.plural if many else code.template)
        elif code.plural:
            assert isinstance(count, int)
            template = language.ngettext(code.template, code.plural, count)
        else:
            template = language.gettext(code.template)
        return template.format(**values)

    def __str__(self) -> str:
        return self.render(None)


def _field(value: object, language: Translator | None) -> object:
    if isinstance(value, Code):
        value = Said(value)
    return value.render(language) if isinstance(value, Said) else value


class Coded(SorryLanError):
    """An error told by a code and its fields (or a :class:`Said`): ``str()`` is the
    English sentence, :attr:`said` what :func:`sorry_lan.i18n.coded.say` words in the
    player's language."""

    def __init__(self, code: Code | Said, /, **fields: object) -> None:
        self.said = code if isinstance(code, Said) else Said(code, fields)
        super().__init__(str(self.said))

    @property
    def code(self) -> Code:
        return self.said.code

    @property
    def fields(self) -> Mapping[str, object]:
        return self.said.fields


# -- the codes -------------------------------------------------------------------------


class Place(Code):
    """Words that fill another code's field."""

    THIS_MACHINE = "this-machine", N_("this machine")
    HELD_BY = "held-by", N_("sorry-lan process {pid} on {machine}")
    HELD_ELSEWHERE = "held-elsewhere", N_("another sorry-lan host")


class HostFailure(Code):
    """Why a table could not be hosted: the server could not listen, or the ``host``
    command cannot do what it was asked."""

    PORT_IN_USE = (
        "port-in-use",
        N_(
            "port {port} is already in use on {host} (is another sorry-lan host running?); "
            "choose another with --port"
        ),
    )
    NOT_LOCAL = "not-local", N_("{host} is not an address of this machine (--bind)")
    CANNOT_LISTEN = "cannot-listen", N_("cannot listen on {host}:{port}: {why}")
    SALVAGE_ALONE = "salvage-alone", N_("--salvage goes with --resume")
    NOT_CHOSEN_IN = "not-chosen-in", N_("{error} in {directory}")
    FINISHED = "finished", N_("game {id} is finished: there is nothing to resume")
    MOVED = "moved", N_(
        "game {id} moved to {name}'s laptop, which hosts the table now: join it there "
        "with `sorry-lan join`"
    )
    NOTHING_SALVAGED = (
        "nothing-salvaged",
        N_("{damage}, and nothing before the damage can be resumed"),
    )
    NO_GAME = "no-game", N_("{path} holds no game to resume")
    NOTHING_TO_RESUME = (
        "nothing-to-resume",
        N_(
            "{damage}: nothing before the damage can be resumed; to host a new table "
            "instead, run `{command}` (the damaged file is kept)"
        ),
    )
    BOTS_RANGE = "bots-range", N_("--bots must be between 0 and {free} (the free seats)")


class JournalFailure(Code):
    """Why a journal cannot be used: written, read back, or chosen to resume."""

    NO_DIR = (
        "no-dir",
        N_(
            "cannot create the journal directory {path} ({why}); choose a writable one with "
            "--data-dir or ${env}"
        ),
    )
    CANNOT_WRITE = (
        "cannot-write",
        N_(
            "cannot write the journal {path} ({why}); choose a writable data directory with "
            "--data-dir or ${env}"
        ),
    )
    NOT_YOURS = (
        "not-yours",
        N_("{path} belongs to another user (uid {uid}); sorry-lan only uses journals you own"),
    )
    LOCKED = (
        "locked",
        (
            "another sorry-lan host is running the game in {name} (it holds the journal's "
            "lock); stop that host first, or resume another game"
        ),
    )
    CANNOT_READ = "cannot-read", "cannot read journal {path}: {why}"
    DAMAGED = "damaged", "{path} is damaged at line {line}: {problem}"
    DAMAGED_AT = "damaged-at", N_("{path} is damaged at {problem}")
    BAD_RECORD = "bad-record", "record {number} ({text})"
    NO_INTACT_PART = "no-intact-part", "{path} has no intact part to resume"
    NO_ID = "no-id", N_("no saved game has the id {wanted} (`{command}` lists them)")
    AMBIGUOUS = (
        "ambiguous",
        ngettext(
            "{n} saved game has an id starting {wanted}; give more of it",
            "{n} saved games have ids starting {wanted}; give more of it",
        ),
    )
    NONE_UNFINISHED = "none-unfinished", N_("there is no unfinished game to resume")
    BEING_HOSTED = "being-hosted", N_(
        "game {id} is being hosted right now by {holder}: stop that host first, or join its table"
    )


class Resume(Code):
    """Why ``host --resume`` cannot choose a game by itself, and the journals it leaves
    out of the list."""

    NEWER_DAMAGED = "newer-damaged", N_("a newer journal is damaged ({id}: {problem})")
    SOMEONE_ELSE = "someone-else", N_("the only unfinished game was hosted by {who}, not {name}")
    NOBODY_KNOWN = "nobody-known", N_(
        "the only unfinished game was hosted by someone else, not {name}"
    )
    ONLY_DAMAGED = "only-damaged", N_("the only unfinished games are damaged")
    SEVERAL = "several", ngettext("{n} game is unfinished", "{n} games are unfinished")
    OTHER_USER = "other-user", N_("{path} belongs to another user (uid {uid}): left out")
    NOT_A_FILE = "not-a-file", N_("{path} is not a plain file: left out")


class Unjoinable(Code):
    """Why a game found on the LAN cannot be joined (shown next to the game; the value
    is also what ``sorry-lan list --json`` prints)."""

    FULL = "full", N_("full")
    PLAYING = "playing", N_("playing")
    FINISHED = "finished", N_("finished")
    NEWER_PROTOCOL = "newer protocol", N_("newer protocol")
    OLDER_PROTOCOL = "older protocol", N_("older protocol")
    INVALID = "invalid advertisement", N_("invalid advertisement")
    UNREACHABLE = "unreachable", N_("unreachable")


class ErrorReason(Code):
    """Reason codes carried by the ``error`` message (see protocol/SPEC.md), with the
    words a player reads for each.  ``sorry_lan.wire.errors`` gives them their wire
    meaning (which are fatal)."""

    # Decoding failures: the connection is closed after the error is sent.
    # bad framing, not msgpack, not a map, trailing bytes:
    MALFORMED = "malformed", N_("the host could not read a message from this program")
    # frame longer than the maximum frame size:
    TOO_LARGE = "too_large", N_("a message was too large for the host")
    # "t" names no message type:
    UNKNOWN_TYPE = "unknown_type", N_("the host does not know a message this program sent")
    MISSING_FIELD = "missing_field", N_("a message to the host lacked a field")
    EXTRA_FIELD = "extra_field", N_("a message to the host had a field too many")
    # wrong type, out of range, too long, not printable:
    BAD_VALUE = "bad_value", N_("the host refused a value this program sent")
    # no protocol version in common:
    VERSION = "version", N_("the host speaks another version of the game's protocol")
    # Flow failures: the message is ignored and the connection stays open.
    # not allowed in the session's current state:
    UNEXPECTED = "unexpected", N_("that cannot be done now")
    # allowed in this state, but not for this connection's role:
    FORBIDDEN = "forbidden", N_("only the player who hosts the table can do that")
    # Checks made by the host application (the session never raises these).
    # a move answering an older state id:
    STALE = "stale", N_("too late: the game had moved on")
    # a move id that is not among the legal moves:
    ILLEGAL = "illegal", N_("that move is not allowed")
    NOT_YOUR_TURN = "not_your_turn", N_("it is not your turn")
    COLOUR_TAKEN = "colour_taken", N_("that colour is taken")
    # start asked for while the table cannot start:
    NOT_READY = "not_ready", N_("the table cannot start yet")
    RATE_LIMITED = "rate_limited", N_("too many messages: wait a moment")
    INTERNAL = "internal", N_("the host hit an internal error")


class RefuseReason(Code):
    """Why a hello or spectate request was turned down (the ``refuse`` message).

    A refusal's English says ``{more}`` where the host's own text (English) may add
    something (which limit was reached); the catalogs' words leave it out."""

    FULL = "full", N_("the table is full"), "the game is full{more}"
    VERSION = (
        "version",
        N_("the host runs another version of sorry-lan"),
        (
            "wrong version: the host speaks protocol {theirs}, this sorry-lan speaks {ours}; "
            "install the same version"
        ),
    )
    BAD_PIN = (
        "bad_pin",
        N_("wrong PIN: check it with the host and give it again with --pin"),
        ("wrong PIN{more}"),
    )
    NAME_TAKEN = (
        "name_taken",
        N_("that name is taken at this table: choose another with --name"),
        ("that name is taken at this table; choose another with --name{more}"),
    )
    # game under way and no seat to reclaim:
    STARTED = "started", N_("the game has already started and has no seat for you")
    BAD_TOKEN = (
        "bad_token",
        N_("the host does not know your seat any more"),
        ("your seat is no longer held at this table"),
    )
    NO_SPECTATORS = (
        "no_spectators",
        N_("this table takes no spectators"),
        ("this table takes no spectators{more}"),
    )
    SHUTTING_DOWN = (
        "shutting_down",
        N_("the host is closing the table"),
        ("the host is shutting down"),
    )
    # too many connections (in all, or from one address): try again soon:
    BUSY = "busy", "the host is busy with too many connections; try again in a moment{more}"
    # too many wrong PINs lately: wait before the next try:
    RATE_LIMITED = "rate_limited", "too many wrong PINs; wait a little before trying again{more}"


class JoinFailure(Code):
    """Why joining failed when the host sent no ``refuse`` (which carries its own reason)."""

    # nobody answered at the address, or the link failed:
    UNREACHABLE = "unreachable", N_("nobody answered at that address")
    # the host closed the connection before welcoming us:
    LOST = "lost", N_("the host closed the connection before letting you in")
    # the table asks for a PIN and we were given none:
    PIN_NEEDED = "pin", N_("this game needs a PIN: give it with --pin")
    # a host that welcomed us before does not answer now (asleep, or cut off): the
    # address is not to blame, and the host keeps the seat:
    ASLEEP = "asleep", N_("the host is not answering (asleep or out of reach); your seat is kept")


_UNREACHABLE, _LOST = JoinFailure.UNREACHABLE.template, JoinFailure.LOST.template


class Joining(Code):
    """What exactly went wrong while joining, in English; in other languages it reads
    as its :class:`JoinFailure` (the same template)."""

    REFUSED = "refused", _UNREACHABLE, "nobody is hosting at {host}:{port} (refused)"
    NO_ROUTE = "no-route", _UNREACHABLE, "cannot reach {host}:{port}: {why}"
    SILENT = (
        "silent",
        _UNREACHABLE,
        (
            "{host}:{port} took the connection but did not answer like a sorry-lan table "
            "within {seconds:g} s: check the address and port"
        ),
    )
    BROKEN = "broken", _UNREACHABLE, "connection failed: {why}"
    CLOSED = "closed", _LOST, "the host closed the connection before welcoming us"
    ENDED = "ended", _LOST, "the host ended the connection: {why}"


class Link(Code):
    """The state of a client's link to its host, with the words for it."""

    CONNECTED = "connected", N_("reconnected: your seat is yours again")
    RECONNECTING = "reconnecting", N_("connection lost; reconnecting, your seat is held")
    LOST = "lost", N_("connection to the host lost")
    # reconnecting to a host that welcomed us before and does not answer now:
    ASLEEP = "asleep", JoinFailure.ASLEEP.template


class LinkNews(Code):
    """What happened to the link, in English; in other languages it reads as its
    :attr:`state` (the same template), except :attr:`CLOSED`, which says more: the host
    said goodbye, so the link is lost but nobody is reconnecting.  The value starts
    with the state's."""

    BACK = "connected", Link.CONNECTED.template, "reconnected; your seat is yours again"
    WATCHING = "connected-watching", Link.CONNECTED.template, "reconnected; watching again"
    HELD = (
        "reconnecting",
        Link.RECONNECTING.template,
        ("connection lost ({reason}); reconnecting, your seat is held for you"),
    )
    REWATCH = (
        "reconnecting-watching",
        Link.RECONNECTING.template,
        ("connection lost ({reason}); reconnecting, watching again shortly"),
    )
    ASLEEP = "asleep", Link.ASLEEP.template  # still trying, for longer: it may wake
    # The host did not answer a ping: still connected, and how long until another
    # laptop takes the table over (or, with no succession, until this one reconnects).
    QUIET = (
        "connected-quiet",
        N_("the host is not answering; if it stays quiet, another laptop takes over in "
           "{seconds} s"),
    )
    QUIET_NO_HEIR = (
        "connected-quiet-alone",
        N_("the host is not answering; if it stays quiet, reconnecting in {seconds} s"),
    )
    ANSWERS = "connected-answers", N_("the host answers again")
    DROPPED = "lost", Link.LOST.template, "connection lost: {reason}"
    CLOSED = "lost-closed", N_("the host closed the table"), "the host closed the table"
    NO_REJOIN = "lost-no-rejoin", Link.LOST.template, "cannot rejoin: {why}"
    GAVE_UP = (
        "lost-gave-up",
        Link.LOST.template,
        ("gave up reconnecting ({last}); a bot plays your seat until you rejoin"),
    )
    GAVE_UP_WATCHING = (
        "lost-gave-up-watching",
        Link.LOST.template,
        ("gave up reconnecting ({last})"),
    )
    # No laptop of the table can take it over (its order holds nobody else): the host
    # alone may come back, and a seat is held only by a host that does.
    GAVE_UP_NO_HEIR = (
        "lost-no-heir",
        N_(
            "stopped waiting: the host did not come back, and no other laptop "
            "at this table can host it"
        ),
    )
    # The table outlives its host (issue 19): who hosts it next.
    HOST_LOST_WAITING = (
        "reconnecting-host-lost", N_("the host is gone; finding who hosts next ({seconds} s)")
    )
    HOST_LOST_NO_HEIR = (
        "reconnecting-no-heir",
        N_(
            "the host's laptop is gone, and no other laptop at this table can host it: "
            "waiting for the host to come back"
        ),
    )
    NEW_HOST = "connected-new-host", N_("{name}'s laptop hosts the table now")
    YOU_HOST = "connected-you-host", N_("your laptop hosts the table now")
    TABLE_MOVED = (
        "connected-table-moved",
        N_("your table moved to {name}'s laptop; you play on as a player"),
    )
    CLAIM_REFUSED = "reconnecting-claim-refused", N_("a new host was refused: {why}")

    @property
    def state(self) -> Link:
        """The link's state after this news."""
        return Link(self.value.split("-")[0])


class Moved(Code):
    """What a connection on protocol version 1-3 (which cannot follow the table by
    itself) is told when the table moves to another laptop (issue 19): whose laptop and
    at which ``{address}`` (host:port, an IPv6 host in brackets), each when known."""

    TO_LAPTOP_AT = "to-laptop-at", N_(
        "The table moved to {name}'s laptop at {address}; join it there to play on."
    )
    TO_LAPTOP = "to-laptop", N_("The table moved to {name}'s laptop; join it there to play on.")
    ELSEWHERE_AT = "elsewhere-at", N_(
        "The table moved to another laptop at {address}; join it there to play on."
    )
    ELSEWHERE = "elsewhere", N_("The table moved to another laptop; join it there to play on.")


class RecordFailure(Code):
    """Why a game record cannot be read, written or trusted (``sorry_lan.records``);
    a refusal of a replay names the turn (``n``, counted from 1) and the reason."""

    TOO_LARGE = "too-large", N_("{path} is larger than {limit} bytes: too large for a game record")
    NOT_JSON = "not-json", N_("{path} is not a game record: it is not whole JSON (cut short?)")
    NOT_UTF8 = "not-utf8", N_("{path} is not a game record: it is not UTF-8 text")
    NESTED = "nested", N_("{path} is not a game record: its JSON is nested too deeply")
    TEXT_FORM = "text-form", N_(
        "{path} is the text form of a game record, which cannot be read back: "
        "export the record as JSON"
    )
    TWICE = "twice", N_("{path} is not a valid game record: {field} is written twice")
    NOT_RECORD = "not-record", N_("{path} is not a game record")
    VERSION = "version", N_(
        "{path} is a game record of format version {version}; this program reads version {known}"
    )
    MALFORMED = "malformed", N_("{path} is not a valid game record: {field} is missing or wrong")
    UNKNOWN_FIELD = "unknown-field", N_(
        "{path} is not a valid game record: {field} is not in format version {version}"
    )
    ENDS_BEFORE = "ends-before", N_(
        "{path} is not a valid game record: it ended before it started"
    )
    NO_SEED = "no-seed", N_(
        "{path} cannot be checked: it has no seed (the game so far, or a game another "
        "host took over)"
    )
    WRONG_PLAYER = "wrong-player", N_("turn {n}: {who} played, but it was {expected}'s turn")
    EDITED_CARD = (
        "edited-card", N_("turn {n}: the card is {card}, but the card dealt was {expected}")
    )
    ILLEGAL = "illegal", N_("turn {n}: {move} is not a legal move")
    EDITED_MOVE = (
        "edited-move", N_("turn {n}: the move's words or effects were changed ({expected})")
    )
    DIFFERS = "differs", N_("turn {n} is not what happened in the game ({expected})")
    ENDS_EARLY = "ends-early", N_("the record stops after turn {n}, before its game ends")
    RESULT = "result", N_("the record's {part} field does not match the game replayed")
    JOURNAL = "journal", N_("journal record {number} does not replay: {why}")
    NO_GAME = "no-game", N_("{id} holds no game number {number}")
    NO_SAVED = "no-saved", N_("no saved games in {directory}")
    CANNOT_READ = "cannot-read", N_("cannot read {path}: {why}")
    CANNOT_WRITE = "cannot-write", N_("cannot write {path}: {why}")


class SeatFile(Code):
    """What became of a seat's token on this machine (``sorry_lan.net.seats``)."""

    NOT_KEPT = "not-kept", N_(
        "your seat cannot be kept on this machine ({why}): if this program stops, it "
        "cannot take the seat back"
    )


#: Every kind of code, for the checks that each has its words.
KINDS: tuple[type[Code], ...] = (
    Place,
    HostFailure,
    JournalFailure,
    Resume,
    Unjoinable,
    ErrorReason,
    RefuseReason,
    JoinFailure,
    Joining,
    Link,
    LinkNews,
    Moved,
    RecordFailure,
    SeatFile,
)

#: Codes whose words no catalog has yet: read in English in every language.  The set
#: must shrink (a test fails when a catalog has words for one listed here).
ENGLISH_ONLY: frozenset[Code] = frozenset(
    {
        JournalFailure.LOCKED,
        JournalFailure.CANNOT_READ,
        JournalFailure.DAMAGED,
        JournalFailure.BAD_RECORD,
        JournalFailure.NO_INTACT_PART,
        RefuseReason.BUSY,
        RefuseReason.RATE_LIMITED,
    }
)
