"""This laptop's part in who hosts its table next (protocol version 4), sans-I/O.

On protocol version 4 (issue 19: the table outlives its host) a client keeps what a
successor needs, and takes part in choosing it.  :class:`Participant` is owned and fed
by :class:`~sorry_lan.client.model.ClientModel` (the one entry point: bytes in, events
out) with what the model read, and keeps: the host's last ``succession``
(:attr:`~Participant.succession`), the last ``commit`` and this seat's salt, its own
hand as last told (less the cards it played since), the chat of the game so far, the
board shown before following a new host until that host shows its own, whether a game
is in progress; :meth:`~Participant.knowledge` puts it together for
``authority.takeover``.  It owns the table's
:class:`~sorry_lan.succession.election.Election` (:attr:`~Participant.election`, made at
the first ``succession``) and feeds it every frame from the host it follows, each new
order, a ``handover``, and on a connection to a candidate (the model's
``join(now, attempt=...)``) the candidate's refusal or the new host's ``succession``,
which it judges (:meth:`~Participant.judge`: the pid handed over to or voted for, a
greater epoch): kept, followed, or refused.  The decisions the election makes on what
the model read wait in :meth:`~Participant.take_decisions`; the shell feeds the rest
(the link's failures, the clock, adverts, its standby's votes) to the election itself.

It sends nothing and tells no reader: it says what the model should send (this
laptop's standby offered to a host it follows, :meth:`~Participant.offer`; this seat's
hand and salt told to a new host it follows, :meth:`~Participant.reveal`), and the
model queues it, reports ``TableNews`` and says bye to a host it refused.  It
does not fold the game: the model hands it the board it shows.  A host on protocol
version 1-3 sends none of this, and then it holds nothing.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from typing import Any

from sorry_lan.rules import Card
from sorry_lan.succession import election as el
from sorry_lan.succession.knowledge import Board, Knowledge
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.records import EventKind
from sorry_lan.wire.session import ClientSession
from sorry_lan.wire.standby import StandbyAnswer, standby_answer
from sorry_lan.wire.succession import ChatLine
from sorry_lan.wire.vocab import RefuseReason

log = logging.getLogger(__name__)

_FROM_HAND = (EventKind.PLAY, EventKind.DISCARD)  # a card leaves its owner's hand

CHAT_KEPT = 100  # lines of the game's chat so far a successor is given (as succession's)

#: What to do with a host's ``succession``: keep it (the host we follow), take it from
#: the host we follow found at a new address (``back``: its welcome was held), follow
#: a new host, or refuse the claim (bye).
class Heed(enum.Enum):
    """What a host's ``succession`` is to this client, when not refused."""

    KEEP = "keep"  # the host we follow
    BACK = "back"  # the host we follow, reached at its new address
    FOLLOW = "follow"  # a new host, followed from now


Verdict = Heed | el.RefuseHost

#: The board the model shows, asked for when needed (None: no game on it).
Shown = Callable[[], Board | None]


class Participant:
    """One laptop's part in its table's succession; see the module docstring."""

    def __init__(self, standby: tuple[int, tuple[str, ...]] | None = None) -> None:
        # This laptop's standby (port, addresses), offered to a version-4 host: it may host.
        self.standby = standby
        self.succession: m.Succession | None = None  # the host's last, as accepted
        self.commit: m.Commit | None = None  # the last hand commitment
        self.salt: bytes | None = None  # this seat's salt in it
        self.hand: tuple[Card, ...] | None = None  # this seat's hand, as last told
        self.chat_lines: list[ChatLine] = []  # the game's chat so far (succession's + live)
        self.election: el.Election | None = None
        # (epoch, seat) of a host that handed the table over to leave it
        self.handed_from: tuple[int, int] | None = None
        self.attempt: el.TryCandidate | None = None  # this connection's, to a candidate
        # Laptops whose standby called a vote's ``seen`` an unknown field (a version-4
        # laptop): voted for with the hello of before; ``_plain_again``: one just did.
        self.plain: set[int] = set()
        self._plain_again = False
        self._decisions: list[el.Decision] = []
        self._pending: m.Welcome | None = None  # a candidate's welcome, not yet checked
        self._offered_on: ClientSession | None = None
        self._checked_on: ClientSession | None = None  # the session a succession came on
        # The board before following a new host, until that host shows its own: one
        # that vanishes first must not leave this laptop without the game in progress.
        self.kept_board: Board | None = None
        # The epoch of the host whose message last changed the board (a vote's
        # ``seen``): a new host followed that has not shown its board yet leaves it.
        self.board_epoch: int | None = None
        self.in_game = False  # a game is in progress as far as this laptop knows
        # (table id, epoch, host) this seat last followed, as its seat file kept it: a
        # laptop that restarted follows no host it knows to be older (Raft's
        # persisted current term)
        self.recalled: tuple[str | None, int, int | None] | None = None
        # The port that recalled host served on, and the one this connection reached
        # (None: not known): a host whose address changed keeps its port
        self.recalled_port: int | None = None
        self.port: int | None = None
        # The standby port each laptop of the orders this seat followed offered (by
        # pid, the latest kept; a seat file keeps them): a successor hosts there
        self.standby_ports: dict[int, int] = {}
        # The last claim refused was forged by its port: the recalled host at its epoch
        # on another port, or a laptop at a newer epoch off its standby's port
        self.replay_refused = False

    # -- what it knows ----------------------------------------------------------------

    @property
    def epoch(self) -> int | None:
        """The epoch of the host we follow (None: it sent no ``succession``)."""
        return None if self.succession is None else self.succession.epoch

    def hosted_here(self, me: int | None) -> bool:
        """The table we follow is hosted by seat ``me`` (this laptop's player; None for
        a spectator): the host's own player, or a laptop that took the table over."""
        known = self.succession
        return known is not None and known.host is not None and known.host == me

    def take_decisions(self) -> list[el.Decision]:
        """The election's decisions on what the model read since the last call, in
        order (the shell carries them out, with those its own inputs return)."""
        taken, self._decisions = self._decisions, []
        return taken

    def board(self, shown: Shown) -> Board | None:
        """The board of the game: the one the model shows (``shown()``), else the one
        kept from before following a new host that has shown none yet."""
        board = shown()
        return self.kept_board if board is None else board

    def seen(self, shown: Shown) -> tuple[int, int] | None:
        """``(epoch, sid)`` of the newest state this laptop holds: the epoch of the host
        that sent the board (``board(shown)``), and its state id; None without one."""
        board = self.board(shown)
        if board is None or self.board_epoch is None or self.succession is None:
            return None
        return (self.board_epoch, board.sid)

    def board_missing(self, shown: Shown) -> bool:
        """A game is in progress as far as this laptop knows, but not its board (a
        reconnection's welcome before the board came again): it may not host the
        table now (a successor would deal a fresh game for the one in progress)."""
        return self.in_game and self.board(shown) is None

    def knowledge(
        self, *, lobby: m.Lobby | None, pid: int | None, token: bytes | None,
        spectate: bool, shown: Shown,
        so_far: Callable[[], dict[str, Any] | None], games_played: int,
        began: float | None = None,
    ) -> Knowledge | None:
        """What this laptop knows that a successor needs (None unless it was welcomed
        as a player by a version-4 host that sent a ``succession`` and a lobby):
        ``shown`` the board the model shows, ``so_far`` the record of its game (each
        asked for only when needed), ``began`` when this client saw the game begin."""
        if self.succession is None or lobby is None or pid is None or token is None or spectate:
            return None
        board = self.board(shown)
        if self.board_missing(shown):
            log.info("no knowledge for a successor: the board of the game is not known")
            return None  # (a successor would deal a fresh game for the one in progress)
        try:
            return Knowledge(
                self.succession, lobby, pid, token, board=board,
                hand=self.hand, salt=self.salt, commit=self.commit,
                chat=tuple(self.chat_lines[-CHAT_KEPT:]),
                so_far=so_far(), games_played=games_played, left=self._left(),
                board_epoch=None if board is None else self.board_epoch, began=began,
            )
        except ValueError as exc:  # the succession does not list this seat (yet)
            log.info("no knowledge for a successor: %s", exc)
            return None

    def _left(self) -> int | None:
        """The seat of the host that handed this table over to the next epoch."""
        handed, known = self.handed_from, self.succession
        if handed is None or known is None or handed[0] != known.epoch + 1:
            return None
        return handed[1]

    # -- a connection -----------------------------------------------------------------

    def connecting(self, attempt: el.TryCandidate | None, port: int | None = None) -> None:
        """A new connection (on ``port``, if known): to a candidate's standby
        (``attempt``) or to the host."""
        self.attempt = attempt
        self.port = port
        self._pending = None
        self._plain_again = False

    def vote_seen(self, shown: Shown) -> tuple[int, int] | None:
        """The ``seen`` the hello of this connection carries: this laptop's newest state
        (:meth:`seen`) in a vote at a laptop's standby, None anywhere else (a host of
        version 4 or older would reject the field) and at a standby that did so."""
        attempt = self.attempt
        if attempt is None or attempt.pid is None or attempt.pid in self.plain:
            return None
        return self.seen(shown)

    def peer_error(self, error: m.Error, greeting: m.Hello | m.Spectate | None) -> None:
        """The peer of this connection sent ``error``: a candidate's standby that calls
        the ``seen`` of our ``greeting`` an unknown field speaks version 4 at most: it
        is voted for again with the hello of before (:meth:`plain_again`)."""
        attempt = self.attempt
        if attempt is None or attempt.pid is None or error.reason is not ErrorReason.EXTRA_FIELD:
            return
        if isinstance(greeting, m.Hello) and greeting.seen is not None:
            self.plain.add(attempt.pid)
            self._plain_again = True

    def plain_again(self) -> bool:
        """Whether the connection just closed should be tried again at once with a
        hello without ``seen`` (its standby rejected the field); each such once."""
        again, self._plain_again = self._plain_again, False
        return again

    def heard(self, session: ClientSession, now: float) -> None:
        """Bytes came on ``session``: the host's, once its succession was accepted."""
        if self.election is not None and self.attempt is None and self._checked_on is session:
            self._decisions += self.election.heard(now)

    def hold(self, welcome: m.Welcome) -> bool:
        """Whether ``welcome`` is a candidate's, held until its succession is checked."""
        if self.attempt is None:
            return False
        self._pending = welcome
        return True

    def refused(self, msg: m.Refuse, now: float) -> bool:
        """The candidate this connection tried refused it (counting votes, not standing,
        or no seat for our token): whether this laptop's seat is gone at the laptop its
        host handed the table to (the election follows the table as a spectator from
        now: so must the model)."""
        if self.attempt is None or self.election is None:
            return False
        attempt, self.attempt = self.attempt, None
        answer = standby_answer(msg)
        if msg.reason is RefuseReason.BAD_TOKEN and self.election.seat_gone(attempt):
            return True
        if answer is StandbyAnswer.OLDER:  # it stands with an older board than ours
            self._decisions += self.election.older(attempt, now)
        elif answer is StandbyAnswer.REFUSED:
            self._decisions += self.election.failed(attempt, now)
        else:  # counting votes, or not standing
            standing = answer is StandbyAnswer.STANDING
            self._decisions += self.election.busy(attempt, now, standing)
        return False

    # -- who hosts --------------------------------------------------------------------

    def judge(
        self, msg: m.Succession, session: ClientSession | None, pid: int | None, now: float
    ) -> Verdict:
        """The host's ``succession`` on ``session``: kept when it is the host we follow
        (its epoch), followed when a new host this client may follow; else refused.
        ``pid``: this seat's."""
        attempt, known = self.attempt, self.epoch
        stale = self._against_recalled(msg, pid) if known is None else None
        if stale is not None:
            return stale
        if attempt is not None:  # a candidate's standby welcomed us: a new host?
            ours = self.succession is None or msg.table == self.succession.table
            decisions = (
                [] if self.election is None
                else self.election.welcomed(attempt, msg.epoch, msg.host, now, ours=ours)
            )
            self._decisions += decisions
            if any(isinstance(d, el.Follow) for d in decisions):
                self.attempt = None
                was = self.succession
                back = was is not None and (msg.epoch, msg.host) == (was.epoch, was.host)
                return Heed.BACK if back else Heed.FOLLOW
            refusal = next((d for d in decisions if isinstance(d, el.RefuseHost)), None)
            return refusal or el.RefuseHost(msg.host, msg.epoch, el.Claim.OUT_OF_TURN)
        if known is None or (msg.epoch == known and not self._another_host(msg, session)):
            if self.election is not None and self._checked_on is not session:
                self._decisions += self.election.heard(now)  # the host is back
            return Heed.KEEP
        election = self.election
        if (
            msg.epoch > known and election is not None and msg.host == pid
            and election.phase is el.Phase.HOSTING
        ):  # this laptop took over: its own client is welcomed by its own host
            return Heed.FOLLOW
        reason = el.Claim.OLD_EPOCH if msg.epoch < known else el.Claim.OUT_OF_TURN
        return el.RefuseHost(msg.host, msg.epoch, reason)

    def _against_recalled(self, msg: m.Succession, pid: int | None) -> el.RefuseHost | None:
        """The refusal of ``msg``, the first ``succession`` a restarted laptop (seat
        ``pid``) is sent, when it names an epoch older than the one its seat last
        followed (a host cut off since, that a majority without it replaced while
        this laptop, one of them, was away), or epoch 1 hosted by another seat than
        the first host's, or this very seat as the host (its own table died with its
        process), or the host it followed at that epoch on another port than the one it
        served on (its claim replayed by another laptop), or a seat at a newer epoch
        (or another seat at that epoch) on another port than its standby offered (a
        successor hosts there: :meth:`_off_standby`).  Another laptop at the epoch
        it knew may be the one that took over when the one it knew died taking over:
        followed, as SPEC 13 says."""
        self.replay_refused = False
        if self.recalled is None:
            return None
        table, epoch, host = self.recalled
        if table is not None and table != msg.table:
            return None
        if pid is not None and msg.host == pid:
            return el.RefuseHost(msg.host, msg.epoch, el.Claim.OUT_OF_TURN)
        first = msg.epoch == epoch == 1 and None not in (host, msg.host) and msg.host != host
        ports = (self.recalled_port, self.port)
        replayed = (msg.epoch, msg.host) == (epoch, host) and None not in ports
        self.replay_refused = replayed and len(set(ports)) > 1
        forged = not first and (
            self._off_standby(msg, epoch, host) or self._never_stood(msg, epoch, host, pid)
        )
        self.replay_refused = self.replay_refused or forged
        if self.replay_refused:
            return el.RefuseHost(msg.host, msg.epoch, el.Claim.OUT_OF_TURN)
        if msg.epoch < epoch or first:  # (only the table's first host hosts epoch 1)
            return el.RefuseHost(msg.host, msg.epoch, el.Claim.OLD_EPOCH)
        return None

    def _off_standby(self, msg: m.Succession, epoch: int, host: int | None) -> bool:
        """Whether ``msg`` names a seat as the host of a newer epoch than the recalled
        ``epoch`` (or another seat than ``host`` at it: a successor too) on another
        port than the one that seat's standby offered, as the seat file recalls it (a
        successor, handed over to or elected, hosts on its standby's port; the host
        recalled may also host again on the port it served on).  Unknown: a seat
        whose standby was never in an order this seat followed, a headless claim, a
        connection whose port is not known."""
        claimed, reached = msg.host, self.port
        if claimed is None or reached is None or msg.epoch < epoch:
            return False
        if msg.epoch == epoch and claimed == host:
            return False  # the host recalled (see the replay above)
        ports = {self.standby_ports.get(claimed)}
        if claimed == host:
            ports.add(self.recalled_port)
        ports.discard(None)
        return bool(ports) and reached not in ports

    def _never_stood(
        self, msg: m.Succession, epoch: int, host: int | None, pid: int | None
    ) -> bool:
        """Whether ``msg`` names another seat than this one as the host of the epoch
        this seat recalls hosting itself, a seat that stood in no order this seat
        followed: a laptop elected at that epoch too (it took over when this one
        died taking over) stood in the order this one was elected from, so its
        standby port is kept.  Unknown: no port kept at all (a seat file from before
        ports were kept)."""
        claimed = msg.host
        return (
            msg.epoch == epoch and pid is not None and host == pid
            and claimed is not None and claimed != pid
            and bool(self.standby_ports) and claimed not in self.standby_ports
        )  # fmt: skip

    def _another_host(self, msg: m.Succession, session: ClientSession | None) -> bool:
        """Whether ``msg``, the first ``succession`` of a new connection to the host we
        follow (a reconnection), names another laptop as host at the epoch we know: no
        host we follow (it hosts that epoch as its own seat, or headless), but a claim
        that did not come through the election (a replay, or a laptop at its address).
        A seat that comes or goes on a live connection (the host's own player sits
        down) is no claim."""
        known = self.succession
        if known is None or self._checked_on is session:
            return False
        return None not in (known.host, msg.host) and msg.host != known.host

    def keep(
        self, msg: m.Succession, session: ClientSession | None, me: int | None, now: float
    ) -> None:
        """``msg`` on ``session`` is the succession of the host we follow from now
        (``me``: this seat, None for a spectator)."""
        self.succession = msg
        self._checked_on = session
        self.chat_lines = list(msg.chat)
        self.standby_ports.update((lap.pid, lap.port) for lap in msg.order)
        order = el.Order.of(msg)
        if self.election is None:
            self.election = el.Election(order, me=me, now=now)
        else:
            self.election.update(order)

    def follow(self, shown: Shown) -> m.Welcome | None:
        """A new host is followed: the welcome it gave, held until now (None: none
        held); the board known so far (``shown()``, or kept) is kept until it shows one."""
        pending, self._pending = self._pending, None
        if pending is not None:
            self.kept_board = self.board(shown)
        return pending

    def drop_attempt(self) -> None:
        """The host this connection reached is refused: no attempt, no welcome held."""
        self.attempt = self._pending = None

    def handover(self, msg: m.Handover, now: float) -> None:
        """The host hands the table over to ``msg.pid`` (and its own player leaves)."""
        if self.succession is not None and self.succession.host is not None:
            self.handed_from = (msg.epoch, self.succession.host)
        if self.election is not None:
            self._decisions += self.election.handover(msg.epoch, msg.pid, now)

    def offer(
        self, session: ClientSession | None, speaks: bool, again: bool = False
    ) -> m.Offer | None:
        """The ``offer`` of this laptop's standby to send to the host on ``session``
        (``speaks``: it hears offers), once a connection or ``again`` (it changed)."""
        if self.standby is None or not speaks:
            return None
        if not again and self._offered_on is session:
            return None
        self._offered_on = session
        port, addrs = self.standby
        return m.Offer(port=port, addrs=addrs)

    def reveal(self) -> m.Reveal | None:
        """This seat's hand and salt, for a new host to play on (None: none held)."""
        if self.hand is None or self.salt is None:
            return None
        return m.Reveal(hand=self.hand, salt=self.salt)

    # -- the game, as the model folds it -------------------------------------------------

    def told_board(self, snap: m.Snapshot) -> None:
        """A snapshot: the board is shown again (none kept), and this seat's hand."""
        if snap.hand is not None:
            self.hand = snap.hand
        self.kept_board = None
        self.board_epoch = self.epoch
        self.in_game = snap.turn is not None

    def told_turn(self, turn: m.Turn) -> None:
        self.board_epoch = self.epoch
        if turn.hand is not None:
            self.hand = turn.hand

    def played(self, msg: m.Events, colour: int | None) -> None:
        """This seat's (``colour``) hand less the cards it played or discarded (what it
        knows of it until its next ``turn`` tells the card drawn: what the host commits to)."""
        self.board_epoch = self.epoch
        hand = self.hand
        if hand is None or colour is None:
            return
        left = list(hand)
        for ev in msg.events:
            if ev[0] in _FROM_HAND and ev[1] == colour and ev[2] in left:
                left.remove(Card(ev[2]))
        self.hand = tuple(left)

    def committed(self, msg: m.Commit) -> None:
        self.commit = msg
        if msg.salt is not None:
            self.salt = msg.salt

    def game_over(self) -> None:
        self.board_epoch = self.epoch
        self.in_game = False
        self.hand = self.salt = self.commit = None  # nothing left to reveal

    def rematch(self) -> None:
        """Back in the lobby: the game and its chat are gone."""
        self.kept_board = None
        self.in_game = False
        self.hand = self.salt = self.commit = None
        self.chat_lines.clear()

    def chat(self, chat: m.Chat, told_again: bool) -> None:
        """Keep a chat line of the game so far for a successor (``told_again``: the
        table's chat so far after a welcome, whose lines the host's last
        ``succession`` may already hold: kept once)."""
        line = ChatLine(chat.pid, chat.text)
        if told_again and line in self.chat_lines:
            return
        self.chat_lines.append(line)
        del self.chat_lines[:-CHAT_KEPT]
