"""ClientModel on protocol version 4 (issue 19), driven by a real wire HostSession and
a number for the clock: the succession, commitments, hand and chat kept, the offer
(once a connection, again when it changes, never to an older host or a spectator),
the knowledge a successor needs, the election it owns (a handover, a vote at a
candidate's standby, a new host checked: followed and told the hand, or refused and
told bye with the board kept), and a version-3 host that hears nothing new."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "succession"))
from tables import LAPTOPS, TOKENS, succession

from sorry_lan.client.model import ClientEvent, ClientModel, TableNews, TableNewsKind
from sorry_lan.codes import RefuseReason
from sorry_lan.rules import Card, Variant
from sorry_lan.rules.board import Colour
from sorry_lan.rules.cards import card_counts
from sorry_lan.succession import election as el
from sorry_lan.succession.commitment import hand_digest
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.succession import ChatLine

STANDBY = (7002, ("127.0.0.3",))
HAND = (Card.ONE, Card.FIVE, Card.SEVEN, Card.TEN, Card.SORRY)
SALT = bytes(range(16))
PLAYERS = tuple(
    r.PlayerInfo(pid, name, Colour(pid), False, False, True)
    for pid, name in enumerate(("host", "ann", "bob", "cat"))
)


class Link:
    """One connection between ``model`` and a host session (protocol ``version``)."""

    def __init__(self, model: ClientModel, now: float, *, version: int = 4,
                 attempt: el.TryCandidate | None = None) -> None:
        self.model = model
        self.now = now
        self.host = HostSession(pin_key=None, versions=tuple(range(1, version + 1)))
        model.join(now, attempt=attempt)
        self.heard: list[m.Message] = []
        self.greeting = self.host.receive_data(model.data_to_send())

    def tell(self, *msgs: m.Message) -> list[ClientEvent]:
        for msg in msgs:
            self.host.send(msg)
        events = self.model.receive_data(self.host.data_to_send(), self.now)
        self.heard += self.host.receive_data(self.model.data_to_send())
        return events

    def welcome(self, pid: int, *msgs: m.Message) -> list[ClientEvent]:
        self.host.welcome(pid, TOKENS[pid], name=self.model.name)
        return self.tell(*msgs)


def lobby(variant: Variant = Variant.STANDARD) -> m.Lobby:
    return m.Lobby(variant=variant, seats=4, host=0, players=PLAYERS, spectators=0)


def points_snapshot(sid: int = 5) -> m.Snapshot:
    return m.Snapshot(
        sid=sid, variant=Variant.POINTS, you=Colour.BLUE, colours=tuple(Colour),
        pawns=(0,) * 16, turn=Colour.RED, card=None, hand=HAND, pile=25, discards=0,
        top=None, discarded=(0,) * 14, scores=(0, 0, 0, 0),
    )


def commit(sid: int = 5) -> m.Commit:
    digests = tuple(hand_digest(bytes([c]) * 16, HAND) for c in range(4))
    return m.Commit(sid=sid, digests=digests, salt=SALT)


def bob(now: float = 100.0, standby: tuple[int, tuple[str, ...]] | None = STANDBY) -> Link:
    """Bob (pid 2, a laptop) at the first host, in its lobby, with the succession."""
    link = Link(ClientModel("bob", standby=standby), now)
    link.welcome(2, succession(variant=Variant.POINTS), lobby(Variant.POINTS))
    return link


def playing(now: float = 100.0) -> Link:
    link = bob(now)
    link.tell(points_snapshot(), commit())
    return link


def test_the_succession_is_kept_and_the_standby_offered_once() -> None:
    link = bob()
    model = link.model
    assert model.succession == succession(variant=Variant.POINTS) and model.epoch == 1
    assert link.heard == [m.Offer(port=7002, addrs=("127.0.0.3",))]
    link.tell(succession(variant=Variant.POINTS))  # the roster changed: no new offer
    assert link.heard == [m.Offer(port=7002, addrs=("127.0.0.3",))]
    model.set_standby(7010, ("127.0.0.3", "::1"))
    link.tell()
    assert link.heard[-1] == m.Offer(port=7010, addrs=("127.0.0.3", "::1"))
    election = model.election
    assert election is not None and election.me == 2 and election.order.laptops == LAPTOPS


def test_no_offer_without_a_standby_to_a_spectator_or_an_older_host() -> None:
    assert bob(standby=None).heard == []
    watcher = ClientModel("eve", spectate=True, standby=STANDBY)
    link = Link(watcher, 100.0)
    link.host.welcome(None, None)
    link.tell(succession(), lobby())
    assert link.heard == []
    assert watcher.election is not None and watcher.election.me is None
    assert watcher.knowledge() is None  # a spectator never hosts
    old = Link(ClientModel("bob", standby=STANDBY), 100.0, version=3)
    old.welcome(2, lobby())
    assert old.heard == [] and old.model.election is None and old.model.knowledge() is None


def test_commit_salt_and_hand_are_kept_and_forgotten_at_game_over() -> None:
    link = playing()
    model = link.model
    assert (model.hand, model.participant.salt, model.participant.commit) == (HAND, SALT, commit())
    link.tell(m.GameOver(sid=9, winners=(Colour.BLUE,), scores=(0, 25, 0, 0)))
    assert (model.hand, model.participant.salt, model.participant.commit) == (None, None, None)


def test_the_hand_known_is_the_hand_told_less_the_cards_played() -> None:
    link = playing()
    played = m.Events(sid=6, colour=Colour.BLUE, notation="", events=(
        (r.EventKind.PLAY, Colour.BLUE, Card.SEVEN),
        (r.EventKind.PLAY, Colour.RED, Card.ONE),  # another seat's card: not ours
    ))
    hands = []
    link.tell(played)
    hands.append(link.model.hand)
    link.tell(m.Events(sid=7, colour=Colour.BLUE, notation="", events=(
        (r.EventKind.DISCARD, Colour.BLUE, Card.SORRY),)))
    hands.append(link.model.hand)
    told = (Card.ONE, Card.FIVE, Card.TEN, Card.TWO, Card.TWO)
    link.tell(m.Turn(sid=8, colour=Colour.BLUE, card=None, hand=told, pile=20))
    hands.append(link.model.hand)
    assert hands == [
        (Card.ONE, Card.FIVE, Card.TEN, Card.SORRY),
        (Card.ONE, Card.FIVE, Card.TEN),
        told,
    ]


def test_knowledge_holds_what_a_successor_needs() -> None:
    link = bob()
    assert link.model.knowledge() is not None  # a lobby: no board yet
    know0 = link.model.knowledge()
    assert know0 is not None and know0.board is None and know0.games_played == 0
    link.tell(points_snapshot(), commit(), m.Chat(pid=1, text="hello"))
    know = link.model.knowledge()
    assert know is not None
    assert (know.pid, know.token, know.epoch, know.colour) == (2, TOKENS[2], 1, 2)
    assert (know.hand, know.salt, know.commit) == (HAND, SALT, commit())
    assert know.chat == (ChatLine(1, "hello"),)
    board = know.board
    assert board is not None
    assert (board.variant, board.sid, board.turn, board.pile) == (Variant.POINTS, 5, 0, 25)
    assert board.seated == (0, 1, 2, 3) and not board.over and board.card is None


def test_knowledge_holds_the_game_so_far_this_client_saw_from_its_start() -> None:
    # No host sent a record: the game so far is the one the client built (client.so_far)
    link = Link(ClientModel("bob", standby=STANDBY), 100.0)
    link.welcome(2, succession(), lobby())
    start = m.Snapshot(
        sid=2, variant=Variant.STANDARD, you=Colour.YELLOW, colours=tuple(Colour),
        pawns=(66,) * 16, turn=Colour.BLUE, card=Card.ONE, hand=None, pile=43, discards=1,
        top=Card.FIVE, discarded=card_counts([Card.FIVE]), scores=None,
    )  # red lost a 5 before the first decision
    link.tell(lobby(), start)
    link.tell(m.Events(sid=3, colour=Colour.BLUE, notation="B1 start->19",
                       events=((3, 1, 1), (0, 4, 66, 19))))  # fmt: skip
    know = link.model.knowledge()
    assert know is not None and know.so_far is not None and link.model.book.so_far is None
    assert know.so_far["first"] == "red" and know.so_far["options"] == {"first": None}
    assert [(t["type"], t["who"], t["card"]) for t in know.so_far["turns"]] == [
        ("lost", "red", "5"), ("move", "blue", "1")
    ]
    assert know.so_far["turns"][1]["parts"] == [
        {"pawn": "B1", "from": "start", "to": 19, "end": 19, "bumps": []}
    ]
    # welcomed mid-game (one roster, then the board): no game so far of its own
    late = Link(ClientModel("cat", standby=STANDBY), 100.0)
    late.welcome(3, succession(), lobby(), start)
    know = late.model.knowledge()
    assert know is not None and know.so_far is None
    # that game is abandoned: whether the table still holds a last winner (a host that
    # restarted meanwhile forgot it) is not known, nor so who was chosen to play first
    late.tell(m.GameOver(sid=3, winners=(), scores=None), m.Rematch(), lobby(), start)
    know = late.model.knowledge()
    assert know is not None and know.so_far is None
    assert late.model.seen.why == "whether the first player was chosen"
    # after a game won, it is known: the winner (here not who played first)
    link.tell(m.GameOver(sid=9, winners=(Colour.GREEN,), scores=None), m.Rematch(), lobby(),
              start)  # fmt: skip
    assert link.model.seen.why is not None and "not who played first" in link.model.seen.why


def test_the_chat_so_far_is_not_kept_twice() -> None:
    said = (ChatLine(1, "hi"), ChatLine(0, "welcome"))
    link = Link(ClientModel("bob"), 100.0)
    link.welcome(2, succession(chat=said), m.Chat(pid=1, text="hi"),
                 m.Chat(pid=0, text="welcome"), lobby())
    link.tell(m.Chat(pid=3, text="go"))
    assert link.model.participant.chat_lines == [*said, ChatLine(3, "go")]


def test_a_handover_is_news_and_the_election_tries_the_successor() -> None:
    link = bob()
    events = link.tell(m.Handover(epoch=2, pid=1))
    assert events == [TableNews(TableNewsKind.HANDOVER, 1, "ann", 2)]
    assert link.model.take_decisions() == [el.TryCandidate(1, LAPTOPS[0].addrs, 7001)]
    assert link.model.closed


def test_a_handover_to_this_laptop_takes_over() -> None:
    link = bob()
    events = link.tell(m.Handover(epoch=2, pid=2))
    assert events == [TableNews(TableNewsKind.HANDOVER, 2, "bob", 2, you=True)]
    assert link.model.take_decisions() == [el.TakeOver(2)]


def test_the_host_s_own_player_is_told_its_table_moved_and_follows_it() -> None:
    """The seat pid 0 hosts (its own player's model): a handover from its own host (a
    step-down) is "your table moved", and the election tries the new host."""
    link = Link(ClientModel("host", standby=STANDBY), 100.0)
    link.welcome(0, succession(), lobby())
    assert link.model.hosted_here and not bob().model.hosted_here
    events = link.tell(m.Handover(epoch=2, pid=1))
    assert events == [TableNews(TableNewsKind.HANDOVER, 1, "ann", 2, mine=True)]
    assert link.model.take_decisions() == [el.TryCandidate(1, LAPTOPS[0].addrs, 7001)]
    watcher = ClientModel("eve", spectate=True)
    watching = Link(watcher, 100.0)
    watching.host.welcome(None, None)
    watching.tell(succession(host=None), lobby())
    assert watcher.succession is not None and not watcher.hosted_here  # (no seat to host)


def lost_then_walking(link: Link) -> el.TryCandidate:
    """Bob's host goes silent: after the delay his election tries Ann's standby."""
    election = link.model.election
    assert election is not None
    assert election.host_lost(link.now + 1) == [el.KeepTrying()]
    decisions = election.tick(link.now + 15)
    assert decisions == [el.TryCandidate(1, LAPTOPS[0].addrs, LAPTOPS[0].port)]
    attempt = decisions[0]
    assert isinstance(attempt, el.TryCandidate)
    return attempt


def test_a_vote_refused_busy_is_tried_again_then_the_new_host_followed() -> None:
    old = playing()
    model = old.model
    attempt = lost_then_walking(old)
    vote = Link(model, 115.5, attempt=attempt)
    assert isinstance(vote.greeting[0], m.Hello) and vote.greeting[0].token == TOKENS[2]
    vote.host.refuse(RefuseReason.BUSY, "waiting for the table: 1 of 2")
    assert vote.tell() == []
    assert model.take_decisions() == []  # busy: tried again in a second
    assert model.election is not None and model.election.tick(116.5) == [attempt]
    assert model.knowledge() is not None and model.snapshot is not None  # board kept
    new = Link(model, 116.6, attempt=attempt)
    events = new.welcome(2, succession(epoch=2, host=1, order=LAPTOPS[1:]))
    assert events == [TableNews(TableNewsKind.HOST_CHANGED, 1, "ann", 2)]
    assert model.take_decisions() == [el.Follow(1, 2)]
    assert model.epoch == 2 and model.connected
    assert new.heard == [
        m.Offer(port=7002, addrs=("127.0.0.3",)),
        m.Reveal(hand=HAND, salt=SALT),  # the hand the old host committed this seat to
    ]
    assert model.knowledge() is not None  # (the new host tells the board again)
    election = model.election
    assert election.order.epoch == 2 and election.phase is el.Phase.WATCHING


def refused(text: str) -> m.Error:
    """What a laptop tells a host whose claim it refuses, before its ``bye``."""
    return m.Error(reason=ErrorReason.FORBIDDEN, text=text, fatal=True)


def test_a_claim_out_of_turn_is_told_bye_and_the_board_kept() -> None:
    old = playing()
    model = old.model
    attempt = lost_then_walking(old)
    claim = Link(model, 115.5, attempt=attempt)
    events = claim.welcome(2, succession(epoch=2, host=3, order=LAPTOPS[:2]))
    assert len(events) == 1 and isinstance(events[0], TableNews)
    news = events[0]
    assert (news.kind, news.pid, news.name, news.epoch) == ("claim_refused", 3, "cat", 2)
    assert "out of turn" in news.text
    assert claim.heard == [refused(news.text)]  # (its bye after: unread)
    decisions = model.take_decisions()
    assert decisions[0] == el.RefuseHost(3, 2, el.Claim.OUT_OF_TURN)
    assert model.epoch == 1 and model.snapshot is not None and model.pid == 2
    know = model.knowledge()
    assert know is not None and know.board is not None and know.hand == HAND


def test_a_reconnection_that_finds_an_older_epoch_says_bye() -> None:
    link = bob()
    model = link.model
    model.connection_lost()
    again = Link(model, 120.0)  # the same host, back: the epoch it knows
    assert again.welcome(2, succession(epoch=1, host=0)) == [] and model.epoch == 1
    attempt = lost_then_walking(again)
    Link(model, 136.0, attempt=attempt).welcome(2, succession(epoch=2, host=1))
    assert model.epoch == 2
    old = Link(model, 200.0)  # by address, to the host that was lost
    events = old.welcome(2, succession(epoch=1, host=0))
    assert events == [
        TableNews(TableNewsKind.CLAIM_REFUSED, 0, "host", 1,
                  text="a claim to host the table at an old epoch (player 0, epoch 1)",
                  claim=el.Claim.OLD_EPOCH),
    ]
    # (no ``bye`` ``quit``: the old host keeps this seat among its laptops, absent)
    said = "a claim to host the table at an old epoch (player 0, epoch 1)"
    assert old.heard == [refused(said)] and model.epoch == 2


def test_a_candidate_that_turns_the_vote_away_is_passed_over() -> None:
    old = bob()
    model = old.model
    attempt = lost_then_walking(old)
    vote = Link(model, 115.5, attempt=attempt)
    vote.host.refuse(RefuseReason.BAD_TOKEN, "no seat of this table has that token")
    vote.tell()
    assert model.take_decisions() == [el.OpenStandby(2)]  # Bob is next


def test_frames_from_the_host_keep_it_alive_for_the_election() -> None:
    link = bob()
    election = link.model.election
    assert election is not None
    link.now = 110.0
    link.tell(m.Ping(n=1))
    assert election.heard_at == 110.0
    assert election.tick(124.0) == [] and election.wake_at == 125.0
