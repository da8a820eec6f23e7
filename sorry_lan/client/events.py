"""What the client model hands its readers: the events of :data:`ClientEvent`.

``ClientModel.receive_data`` returns these, in order: the wire messages a user
interface or a bot reads (``Lobby``, ``Snapshot``, ``Turn``, ``LegalMoves``,
``MoreTime``, ``Events``, ``GameOver``, ``Rematch``, ``Chat``, ``Error``), matched on as they are,
:class:`ReplayMismatch` (a ``resync`` was asked), :class:`GameRecord` (a game record
the host sent: ``client.records``) and :class:`TableNews` (who hosts the table).
:class:`Connection` is made by the shell that owns the link, not the model; it is in
the union so readers handle it.  :data:`SeatNews` is what the seat token deserves.

Plain frozen values: nothing here reads, folds or decides.  All are importable from
``sorry_lan.client.model`` too.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from sorry_lan.client.records import GameRecord
from sorry_lan.codes import Link, LinkNews, Said
from sorry_lan.succession import election as el
from sorry_lan.wire import messages as m


class TableNewsKind(StrEnum):
    """What a :class:`TableNews` tells."""

    HOST_CHANGED = "host_changed"
    HANDOVER = "handover"
    CLAIM_REFUSED = "claim_refused"


@dataclass(frozen=True)
class Connection:
    """The link to the host changed (made by the network shell, not the model):
    ``news`` is a :class:`~sorry_lan.codes.LinkNews` with its fields."""

    news: Said

    @property
    def state(self) -> Link:
        """``connected``, ``reconnecting`` or ``lost``."""
        code = self.news.code
        return code.state if isinstance(code, LinkNews) else Link(code)

    @property
    def text(self) -> str:
        """The news in English."""
        return str(self.news)


@dataclass(frozen=True)
class ReplayMismatch:
    """The ``events`` of state id ``sid`` did not add up on our board: a resync was asked."""

    sid: int
    problem: str


@dataclass(frozen=True)
class TableNews:
    """Who hosts the table changed, or was to (protocol version 4):

    - ``host_changed``: we follow a new host, seat ``pid`` (``name``) at ``epoch``
      (``you``: this laptop's own, after its takeover);
    - ``handover``: the host said it hands the table to ``pid`` at ``epoch``
      (``mine``: this laptop hosted it, and its player plays on there: the host that
      woke to find its table moved and stepped down);
    - ``claim_refused``: ``pid`` claimed to host at ``epoch`` and was told bye for
      ``claim`` (out of turn, an old epoch); ``text`` says it in English."""

    kind: TableNewsKind
    pid: int | None
    name: str | None
    epoch: int
    you: bool = False
    text: str = ""
    claim: el.Claim | None = None
    mine: bool = False


ClientEvent = (
    m.Lobby
    | m.Snapshot
    | m.Turn
    | m.LegalMoves
    | m.MoreTime
    | m.Events
    | m.GameOver
    | m.Rematch
    | m.Chat
    | m.Error
    | ReplayMismatch
    | GameRecord
    | TableNews
    | Connection
)

class SeatNews(Enum):
    """What the seat token deserves after a read: keep it (a game to come back to), or
    forget it (the game is over); see :meth:`ClientModel.take_seat_news`."""

    KEEP = "keep"
    FORGET = "forget"
