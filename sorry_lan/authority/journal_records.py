"""The journal's records as data: what each one holds, built by pure functions.

Each function returns one record (a dict; ``journal_format.encode`` writes it as it
is on disk, and ``sorry_lan.net.journal`` lists the records).  :class:`RecordBuffer` is
a table's :class:`~sorry_lan.authority.table.Recorder` that keeps the records it is
given until the host core takes them (:meth:`RecordBuffer.take`) and hands them on
as ``Append`` effects.

Nothing here reads a clock: a ``game`` record's start time (``t``, Unix seconds) is
given by the caller (the buffer asks its ``wall`` function).  Nothing here writes a
file or syncs one (the journal file in ``net/`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sorry_lan.rules import Card, Game
from sorry_lan.rules.midgame import Midgame

Record = dict[str, Any]

#: What a takeover record keeps of the game's record so far: its first player,
#: options, start and turns carry the record on; its identity, the hosts before.
SO_FAR_KEYS = ("first", "options", "started", "turns", "game", "hosts")
KEPT = frozenset(SO_FAR_KEYS[:4])  # (written even when not known: null)


def game_record(
    game: Game,
    names: Mapping[int, str],
    bots: Sequence[int],
    tokens: Mapping[int, str],
    *,
    t: int,
    owner: int | None = None,
    first_arg: int | None = None,
    table: str | None = None,
    host: str | None = None,
    levels: Mapping[int, str] | None = None,
    tid: str | None = None,
    epoch: int | None = None,
) -> Record:
    """A game's start (``levels``: each bot's strength, by colour; ``tid``, the
    table's id, and ``epoch``, its host's, when known: what names the game on every
    laptop, with its number among the table's games).  ``first_arg`` is
    the ``first`` the game was built with (None: drawn from the seed, which also
    advances the deck's generator); ``table`` and
    ``host`` name the table and whoever hosts it (for listings); ``t`` is when it
    started (Unix seconds)."""
    record: Record = {
        "k": "game",
        "variant": game.variant.value,
        "seated": list(game.seated),
        "seed": game.seed,
        "first": game.first,
        "first_arg": first_arg,
        "sid0": game.first_sid,
    }
    if tid is not None:
        record["tid"] = tid
    if epoch is not None:
        record["epoch"] = int(epoch)
    return record | _seats(names, bots, tokens, levels, owner, t, table, host)


def _seats(
    names: Mapping[int, str], bots: Sequence[int], tokens: Mapping[int, str],
    levels: Mapping[int, str] | None, owner: int | None, t: int, table: str | None,
    host: str | None,
) -> Record:
    """Who sits where as a game's first record says it (by colour, as text keys)."""
    record: Record = {
        "names": {str(c): n for c, n in names.items()},
        "bots": sorted(bots),
        "levels": {str(c): lv for c, lv in sorted((levels or {}).items())},
        "tokens": {str(c): h for c, h in tokens.items()},
        "owner": owner,
        "t": t,
    }
    if table is not None:
        record["table"] = table
    if host is not None:
        record["host"] = host
    return record


def move_record(state_id: int, compact: Sequence[int], t: int | None = None) -> Record:
    """One chosen move: the state id it answered and its compact form; ``t`` (Unix
    seconds) on the move that ended the game: when it ended."""
    record: Record = {"k": "move", "sid": int(state_id), "m": [int(x) for x in compact]}
    if t is not None:
        record["t"] = t
    return record


def seat_record(colour: int, name: str, token: str | None) -> Record:
    """A seat (re)bound to a new token during a game."""
    return {"k": "seat", "colour": colour, "name": name, "token": token}


def cover_record(colour: int, level: str) -> Record:
    """A bot of strength ``level`` began playing for ``colour``, whose person is away."""
    return {"k": "cover", "colour": colour, "level": level}


def back_record(colour: int, name: str) -> Record:
    """``name``, whose seat a bot covered, took ``colour``'s seat back."""
    return {"k": "back", "colour": colour, "name": name}


def chat_record(colour: int, text: str) -> Record:
    """A chat line said at the table."""
    return {"k": "chat", "colour": colour, "text": text}


def end_record() -> Record:
    """The table closed on purpose (nothing to resume)."""
    return {"k": "end"}


def takeover_record(
    position: Midgame,
    seed: int,
    *,
    tid: str,
    from_epoch: int,
    epoch: int,
    names: Mapping[int, str],
    bots: Sequence[int],
    tokens: Mapping[int, str],
    pids: Mapping[int, int],
    t: int,
    owner: int | None = None,
    levels: Mapping[int, str] | None = None,
    games: int = 1,
    table: str | None = None,
    host: str | None = None,
    so_far: Mapping[str, Any] | None = None,
    seat: int | None = None,
    port: int | None = None,
) -> Record:
    """A successor's first record: it took table ``tid`` over from its host of epoch
    ``from_epoch`` as host of ``epoch``, at the game's ``position`` (the hands it knew
    then), its unseen cards shuffled from ``seed`` (``rules.midgame.rebuild`` makes the
    same game again from the two); the seats by colour as ``game_record`` has them, and
    ``pids``, each seat's pid, kept across hosts; ``games`` counts this game among the
    table's (1: its first); ``so_far``, the game's record so far as the old host sent
    it (``protocol/RECORD.md``), if the successor was sent one: its first player,
    options, start and turns carry the game's record on; ``seat``, the pid of the seat
    whose laptop hosts it (``host --resume`` hosts it again from that seat), and
    ``port``, its standby's port, where it hosts (and ``host --resume`` listens again:
    the table's other laptops look for it there)."""
    record: Record = {
        "k": "takeover",
        "tid": tid,
        "from_epoch": int(from_epoch),
        "epoch": int(epoch),
        "seed": int(seed),
        **position.as_json(),
        "pids": {str(c): int(p) for c, p in sorted(pids.items())},
        "games": int(games),
    }
    if so_far is not None:
        record["so_far"] = {k: so_far.get(k) for k in SO_FAR_KEYS if k in so_far or k in KEPT}
    if seat is not None:
        record["seat"] = int(seat)
    if port is not None:
        record["port"] = int(port)
    return record | _seats(names, bots, tokens, levels, owner, t, table, host)


def reveal_record(colour: int, hand: Sequence[Card]) -> Record:
    """After a takeover (play for points): ``colour`` revealed its hand (or the part of
    it its player knew), which matched what the old host committed to, and holds it
    again (``rules.midgame.reveal_hand``)."""
    return {"k": "reveal", "colour": int(colour), "hand": [int(c) for c in hand]}


def laptop_record(pid: int, addrs: Sequence[str], port: int) -> Record:
    """Seat ``pid``'s laptop offered to host next on ``port`` at ``addrs``: a resumed
    host (``host --resume``) asks it there whether the table moved on without it."""
    return {"k": "laptop", "pid": int(pid), "addrs": [str(a) for a in addrs], "port": int(port)}


def moved_record(epoch: int, pid: int, name: str | None = None) -> Record:
    """This host no longer hosts the table: seat ``pid`` (``name``, if known) hosts it
    at ``epoch`` (a handover, or a step down); its journal is not resumed."""
    record: Record = {"k": "moved", "epoch": int(epoch), "pid": int(pid)}
    if name is not None:
        record["name"] = name
    return record


class RecordWriter:
    """A table's :class:`~sorry_lan.authority.table.Recorder` over one ``append``: each
    method builds its record (the functions above) and appends it.  Subclasses give
    ``append`` (where a record goes) and ``wall`` (the time of day, Unix seconds, a
    ``game`` record carries)."""

    def append(self, record: Record) -> None:
        raise NotImplementedError

    def wall(self) -> float:
        raise NotImplementedError

    def game(
        self,
        game: Game,
        names: Mapping[int, str],
        bots: Sequence[int],
        tokens: Mapping[int, str],
        owner: int | None = None,
        first_arg: int | None = None,
        table: str | None = None,
        host: str | None = None,
        levels: Mapping[int, str] | None = None,
        tid: str | None = None,
        epoch: int | None = None,
    ) -> None:
        self.append(game_record(
            game, names, bots, tokens, t=int(self.wall()), owner=owner,
            first_arg=first_arg, table=table, host=host, levels=levels, tid=tid, epoch=epoch,
        ))  # fmt: skip

    def move(self, state_id: int, compact: Sequence[int], ended: bool = False) -> None:
        self.append(move_record(state_id, compact, int(self.wall()) if ended else None))

    def seat(self, colour: int, name: str, token: str | None) -> None:
        self.append(seat_record(colour, name, token))

    def cover(self, colour: int, level: str) -> None:
        self.append(cover_record(colour, level))

    def back(self, colour: int, name: str) -> None:
        self.append(back_record(colour, name))

    def chat(self, colour: int, text: str) -> None:
        self.append(chat_record(colour, text))

    def reveal(self, colour: int, hand: Sequence[Card]) -> None:
        self.append(reveal_record(colour, hand))

    def moved(self, epoch: int, pid: int, name: str | None = None) -> None:
        self.append(moved_record(epoch, pid, name))

    def laptop(self, pid: int, addrs: Sequence[str], port: int) -> None:
        self.append(laptop_record(pid, addrs, port))


class RecordBuffer(RecordWriter):
    """A table's recorder that keeps its records for the host core to hand on.

    ``wall`` gives the time of day (Unix seconds) a ``game`` record carries; ``seen``
    is shown every record as it is made (the core's game log); with ``keep`` False
    (a table without a journal file) nothing is kept to hand on."""

    def __init__(
        self, wall: Callable[[], float], *, seen: Callable[[Record], None] | None = None,
        keep: bool = True,
    ) -> None:
        self._wall = wall
        self._seen = seen
        self._keep = keep
        self._records: list[Record] = []

    def wall(self) -> float:
        return self._wall()

    def append(self, record: Record) -> None:
        if self._seen is not None:
            self._seen(record)
        if self._keep:
            self._records.append(record)

    def stop_keeping(self) -> None:
        """Keep no record from now on (the game goes on apart from the table's)."""
        self._keep = False

    def take(self) -> list[Record]:
        """The records given since the last call, oldest first."""
        taken, self._records = self._records, []
        return taken
