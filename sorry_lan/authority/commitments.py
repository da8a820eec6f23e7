"""The host's commitments to the hands, in play for points (protocol version 4).

A commitment covers what a hand's owner **knows** of its hand, which is what it can
reveal to a new host: the hand it was last told (its ``turn`` when on turn, its
``snapshot``) less the cards it played since.  (The card drawn after a play is told
to its owner only in its next ``turn``: until then nobody but the host has seen it,
and a new host deals it afresh.)  A seat whose owner was never told its hand (a
host's bot, a person away since the deal) has no commitment.

Each time what any owner knows changes, :meth:`Commitments.update` takes a fresh salt
for every seat and keeps each known hand's digest
(``succession.commitment.hand_digest``); :meth:`Commitments.message` is the ``commit``
a seat is sent: every seat's digest, and its own salt only.  The last digests stay,
by colour, until the next change.

It sends nothing and decides nobody's hand: the core says what each owner was told
and played, and whom to tell; the game holds the hands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from sorry_lan.succession.commitment import hand_digest, new_salt
from sorry_lan.wire import messages as m

NUM_COLOURS = 4


class Commitments:
    """What each owner knows of its hand in one game, and the digests of it."""

    def __init__(self, salt: Callable[[], bytes] = new_salt) -> None:
        self._salt = salt
        self.game: object = None  # which game of the table this is about
        self._told: dict[int, Counter[int]] = {}  # by colour: the hand last told, less plays
        self.known: dict[int, tuple[int, ...]] = {}  # by colour: sorted card ints
        self.salts: dict[int, bytes] = {}
        self.digests: dict[int, bytes] = {}
        self.sid = 0
        self._committed: dict[int, tuple[int, ...]] = {}

    def new_game(self, game: object) -> None:
        """Forget everything: ``game`` (any identity) begins."""
        self.game = game
        self._told, self.known, self._committed = {}, {}, {}
        self.salts, self.digests = {}, {}

    def told(self, colour: int, hand: Iterable[int]) -> None:
        """``colour``'s owner was just told its whole hand."""
        self._told[colour] = Counter(int(c) for c in hand)
        self.known[colour] = tuple(sorted(self._told[colour].elements()))

    def played(self, colour: int, card: int) -> None:
        """``colour`` played (or discarded) ``card`` from its hand."""
        told = self._told.get(colour)
        if told is None:
            return
        told[int(card)] -= 1
        held = tuple(sorted(told.elements()))
        if held:
            self.known[colour] = held
        else:  # it knows none of its cards: nothing to reveal, nothing to commit to
            del self._told[colour]
            self.known.pop(colour, None)

    def update(self, sid: int) -> bool:
        """If what any owner knows changed since the last commitment, commit to every
        known hand afresh (a new salt for every seat) as of state ``sid``.  Returns
        whether it changed."""
        if self.known == self._committed:
            return False
        self._committed = dict(self.known)
        self.salts = {c: self._salt() for c in self.known}
        self.digests = {c: hand_digest(self.salts[c], h) for c, h in self.known.items()}
        self.sid = sid
        return True

    def message(self, colour: int | None) -> m.Commit:
        """The ``commit`` for seat ``colour`` (None: one that holds no hand)."""
        return m.Commit(
            sid=self.sid,
            digests=tuple(self.digests.get(c) for c in range(NUM_COLOURS)),
            salt=None if colour is None else self.salts.get(colour),
        )
