"""The line mode's words: every kind of event one line of sentences naming people."""

from __future__ import annotations

import dataclasses

import pytest
from told import ToldModel

from sorry_lan.client import model as c
from sorry_lan.codes import LinkNews
from sorry_lan.rules.board import START, Colour
from sorry_lan.rules.cards import Card
from sorry_lan.rules.variants import Variant, initial_pawns
from sorry_lan.tui.line_help import help_lines
from sorry_lan.tui.lines import command
from sorry_lan.tui.state import RosterEntry
from sorry_lan.tui.telling import RECENT_TURNS, Teller, roster_lines
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r
from sorry_lan.wire.errors import ErrorReason

RED, BLUE = Colour.RED, Colour.BLUE
PAWNS = (5, START, START, START, START, START, START, START) + (START,) * 8
ANN = r.PlayerInfo(pid=0, name="Ann", colour=RED, bot=False, ready=True, connected=True)
BOB = r.PlayerInfo(pid=1, name="Bob", colour=BLUE, bot=False, ready=True, connected=True)
LOBBY = m.Lobby(variant=Variant.STANDARD, seats=2, host=0, players=(ANN, BOB), spectators=0)
SNAPSHOT = m.Snapshot(
    sid=4, variant=Variant.STANDARD, you=RED, colours=(RED, BLUE),
    pawns=PAWNS, turn=RED, card=Card.ONE, hand=None, pile=40, discards=4,
    top=Card.ONE, discarded=(0, 4) + (0,) * 12, scores=None,
)


def ann() -> ToldModel:
    model = ToldModel("Ann", 0, owner=True)  # the teller reads its identity and views
    return model


def said(teller: Teller, model: c.ClientModel, ev: c.ClientEvent) -> list[str]:
    """What ``teller`` says of ``ev``: a host's message goes through the model (whose
    views the teller reads), and the teller is told each event it makes."""
    if isinstance(model, ToldModel) and not isinstance(
        ev, c.Connection | c.ReplayMismatch | c.GameRecord | c.TableNews
    ):
        return [line for made in model.hear(ev) for line in teller.tell(model, made)]
    return teller.tell(model, ev)


def seated(teller: Teller | None = None) -> tuple[Teller, ToldModel]:
    teller, model = teller or Teller(), ann()
    said(teller, model, LOBBY)
    said(teller, model, SNAPSHOT)
    return teller, model


def test_the_lobby_names_each_seat_with_its_colour() -> None:
    robo = r.PlayerInfo(2, "robo", None, False, True, False, lang="cy", program=True)
    lobby = m.Lobby(variant=Variant.TEAM, seats=4, host=0, players=(ANN, BOB, robo),
                    spectators=1)  # fmt: skip
    assert said(Teller(), ann(), lobby) == [
        "The table plays team play for up to 4 players: Ann (red, you, the host), Bob (blue) "
        "and robo (no colour yet, bot, Cymraeg, away).",
        "1 person is watching, Ann.",
    ]


def test_the_game_begins_with_who_plays_which_colour() -> None:
    teller, model = Teller(), ann()
    said(teller, model, LOBBY)
    fresh = dataclasses.replace(SNAPSHOT, pawns=(START,) * 16)
    assert said(teller, model, fresh) == ["The game begins: Ann plays red and Bob plays blue."]


def test_your_turn_tells_the_card_what_it_allows_and_the_numbered_moves() -> None:
    teller, model = seated()
    offer = m.LegalMoves(sid=4, timeout=30, moves=(
        r.MoveOption(id=0, notation="R1 5->6", move=(0, 1, 0, 6)),
        r.MoveOption(id=1, notation="R2 start->4", move=(0, 1, 1, 4)),
    ))  # fmt: skip
    assert said(teller, model, offer) == [
        "Ann, your turn: a 1, 2 moves. You have 30 seconds to choose.",
        "Move 1: your pawn 2 leaves start.",  # (leaving START is told before a step)
        "Move 2: your pawn 1 to 62 from home.",  # (the card's own count is not said again)
        "Type your move's number, or help.",
    ]
    assert teller.offer() == said(teller, model, offer)  # the moves command repeats it


def test_a_move_a_lost_turn_a_two_and_a_reshuffle_each_say_so() -> None:
    teller, model = seated()
    played = m.Events(sid=5, colour=BLUE, notation="B1 start->19", events=(
        (3, BLUE, 2), (0, 4, START, 19), (6, BLUE), (7, 40),
    ))  # fmt: skip
    assert said(teller, model, played) == [
        "Bob played a 2: pawn 1 leaves start. Bob draws again. The discards are shuffled "
        "into a new pile of 40 cards."
    ]
    lost = m.Events(sid=6, colour=RED, notation="", events=((5, RED, 12),))
    assert said(teller, model, lost) == [
        "You drew a 12 and have no move, so your turn is lost."
    ]


def test_a_move_played_for_you_when_your_time_ran_out_says_so() -> None:
    teller, model = seated()
    said(teller, model, m.LegalMoves(sid=4, timeout=5, moves=(
        r.MoveOption(id=0, notation="R1 5->6", move=(0, 1, 0, 6)),)))  # fmt: skip
    events = m.Events(sid=5, colour=RED, notation="R1 5->6", events=((3, RED, 1), (0, 0, 5, 6)))
    [line] = said(teller, model, events)
    assert line.startswith("Your time ran out, so a bot played a 1 for you: your pawn 1 to ")


def test_board_tells_every_pawn_and_whose_turn_on_request() -> None:
    teller, model = seated()
    said(teller, model, m.Events(sid=5, colour=BLUE, notation="", events=(
        (3, BLUE, 1), (0, 4, START, 19))))  # fmt: skip
    said(teller, model, m.Turn(sid=6, colour=BLUE, card=Card.FIVE, hand=None, pile=38))
    assert teller.board() == [
        "Your pawns (red): 3 pawns at start and pawn 1 at 63 from home.",
        "Bob's pawns (blue): 3 pawns at start and pawn 1 at 64 from home.",
        "It is Bob's turn, with a 5.",
    ]
    said(teller, model, m.Turn(sid=7, colour=RED, card=Card.ELEVEN, hand=None, pile=37))
    assert teller.board()[-1] == (
        "It is your turn, with an 11 (move 11, or swap with an opponent)."
    )  # (what the card allows: not in the offer, which is to be short)


def test_game_over_names_the_winner_and_the_points() -> None:
    teller, model = seated()
    assert said(teller, model, m.GameOver(sid=9, winners=(BLUE,), scores=None)) == [
        "The game is over: Bob won.",
        "The standings: place 1: Bob, 0 pawns home; place 2: Ann, 0 pawns home.",
        "Ann, type rematch to play again, or quit to leave.",
    ]
    tapping, model = seated(Teller(typed=False))
    assert said(tapping, model, m.GameOver(sid=9, winners=(BLUE,), scores=None))[-1] == (
        "The standings: place 1: Bob, 0 pawns home; place 2: Ann, 0 pawns home.")
    assert said(teller, model, m.GameOver(sid=9, winners=(RED,), scores=None))[0] == (
        "The game is over: Ann won. Well played, Ann!"
    )


def test_chat_errors_link_news_and_rematch_are_sentences_with_names() -> None:
    teller, model = seated()
    assert said(teller, model, m.Chat(pid=1, text="good luck")) == ["Bob says: good luck."]
    assert said(teller, model, m.Chat(pid=None, text="closing soon!")) == [
        "The host says: closing soon!"
    ]
    refused = m.Error(reason=ErrorReason.COLOUR_TAKEN, text="that colour is taken", fatal=False)
    assert said(teller, model, refused) == [
        "The host refused your request: that colour is taken."
    ]
    link = c.Connection(LinkNews.DROPPED(reason="gone"))
    assert said(teller, model, link) == ["Your connection: connection lost: gone."]
    said(teller, model, m.GameOver(sid=9, winners=(RED,), scores=None))  # (then a rematch)
    ended = teller.over
    assert teller.view.pawns == PAWNS and ended is not None
    assert said(teller, model, m.Rematch()) == [
        "Ann, you opened the next game's lobby, with the same seats; type start to begin it."
    ]
    assert teller.position == () and teller.over is None  # the next game starts afresh
    assert said(teller, model, c.ReplayMismatch(5, "no pawn there")) == []
    assert said(teller, model, c.GameRecord(1, {"result": None})) == []  # the process files it


def test_roster_changes_are_told_by_name_and_colour() -> None:
    old = {1: RosterEntry("Bob", 1, False, True), 2: RosterEntry("Cai", 2, False, True)}
    new = {1: RosterEntry("Bob", 1, False, False), 3: RosterEntry("Dee", 3, True, True)}
    assert roster_lines(old, new, you=0, over=False) == [
        "Bob (blue) lost the connection; the seat is held.",
        "Dee (green, bot) joined.",
        "Cai (yellow) left the table.",
    ]
    ready = {1: RosterEntry("Bob", 1, False, True, ready=True)}
    assert roster_lines({1: RosterEntry("Bob", 1, False, True)}, ready, 0, over=True) == [
        "Bob (blue) asks for a rematch; type rematch to play again too."
    ]
    # (a phone's page taps its rematch button: it is told no command to type)
    assert roster_lines({1: RosterEntry("Bob", 1, False, True)}, ready, 0, over=True,
                        typed=False) == ["Bob (blue) asks for a rematch."]


def test_help_lists_every_command_word() -> None:
    text = " ".join(help_lines())
    for word in ("moves", "board", "where", "table", "who", "say", "colour", "ready",
                 "start", "bot", "variant", "rematch", "help", "?", "keys", "quit", "repeat",
                 "rules", "hint"):
        assert f" {word} " in f" {text} ".replace(",", " "), word


def test_a_spectator_hears_every_pawn_by_its_owners_name() -> None:
    teller, zed = Teller(), ToldModel("Zed", None, owner=False, spectate=True)
    said(teller, zed, LOBBY)
    watched = dataclasses.replace(SNAPSHOT, you=None, pawns=(START,) * 16)
    assert said(teller, zed, watched) == [
        "You are watching, and the game begins: Ann plays red and Bob plays blue."
    ]
    played = m.Events(sid=5, colour=RED, notation="", events=(
        (3, RED, 13), (0, 0, START, 24), (2, 4, 24)))  # fmt: skip
    assert said(teller, zed, played) == [
        "Ann played a Sorry! card: pawn 1 bumps Bob's pawn 1, to 44 from home."
    ]
    assert said(teller, zed, m.GameOver(sid=9, winners=(RED,), scores=None)) == [
        "The game is over: Ann won.",  # no rematch prompt for a spectator
        "The standings: place 1: Ann, 0 pawns home; place 2: Bob, 0 pawns home.",
    ]


def test_the_chat_so_far_is_named_from_the_lobby_that_follows_it() -> None:
    teller, model = Teller(), ann()
    # the model reads the whole batch (the chat so far, then the lobby) before the
    # teller is told its first event
    made = model.hear(m.Chat(pid=1, text="good luck ann"), LOBBY)
    assert teller.tell(model, made[0]) == ["Bob says: good luck ann."]


def test_turns_that_pass_by_themselves_after_a_move_get_a_line_each() -> None:
    teller, model = seated()
    events = m.Events(sid=5, colour=BLUE, notation="", events=(
        (3, BLUE, 2), (0, 4, START, 19), (6, BLUE), (5, BLUE, 12), (7, 40), (5, RED, 10),
    ))  # fmt: skip
    assert said(teller, model, events) == [
        "Bob played a 2: pawn 1 leaves start. Bob draws again.",
        "Bob drew a 12 and has no move, so the turn is lost. The discards are shuffled into "
        "a new pile of 40 cards.",
        "You drew a 10 and have no move, so your turn is lost.",
    ]


def test_at_a_new_host_in_play_for_points_your_slow_turn_says_it_waits_for_the_hands() -> None:
    teller, model = Teller(), ann()
    said(teller, model, LOBBY)
    hand = (Card.ONE, Card.TWO, Card.FOUR, Card.TEN, Card.SORRY)
    points = dataclasses.replace(SNAPSHOT, variant=Variant.POINTS, card=None, hand=hand)
    said(teller, model, points)
    assert not teller.waits()
    said(teller, model, c.TableNews(c.TableNewsKind.HOST_CHANGED, 1, "Bob", 2))
    said(teller, model, m.Turn(sid=4, colour=RED, card=None, hand=hand, pile=30))
    assert teller.waits()  # no offer yet: said if it is slow to come, once
    assert teller.thinking() == "Your turn: waiting for the other players' hands."
    assert teller.thinking() is None
    said(teller, model, c.TableNews(c.TableNewsKind.HOST_CHANGED, 1, "Bob", 3))
    offer = m.LegalMoves(sid=4, timeout=None, moves=(
        r.MoveOption(id=0, notation="1: R1 5->6", move=(0, 1, 0, 6)),))  # fmt: skip
    said(teller, model, offer)
    assert not teller.waits()  # offered: nothing to wait for
    standard, model = seated()
    said(standard, model, c.TableNews(c.TableNewsKind.HOST_CHANGED, 1, "Bob", 2))
    assert not standard.waits()  # no hands in standard play


def test_the_board_told_is_never_ahead_of_the_events_told() -> None:
    # the model has read a move the line mode has not told yet (its queue is behind)
    teller, model = seated()
    moved = m.Events(sid=5, colour=BLUE, notation="B1 start->19",
                     events=((3, BLUE, 1), (0, 4, START, 19)))  # fmt: skip
    [made] = model.hear(moved)
    assert model.view.pawns != PAWNS and teller.position == PAWNS
    link = c.Connection(LinkNews.DROPPED(reason="gone"))  # the shell's news meanwhile
    teller.tell(model, link)
    assert teller.position == PAWNS  # (the table as the events told so far left it)
    teller.tell(model, made)
    assert teller.position == model.view.pawns and teller.position[4] == 19
    assert teller.board()[1].startswith("Bob's pawns (blue): ")


class Typist:
    """The line mode's client as ``command`` uses it: the model, and the moves played."""

    def __init__(self, model: c.ClientModel) -> None:
        self.model = model
        self.played: list[int] = []

    def play(self, move_id: int) -> None:
        self.played.append(move_id)


def test_a_number_typed_as_a_turn_that_ran_out_gives_way_is_not_played_on_the_next() -> None:
    """A bot played Ann's turn as her time ran out; the next offer comes at once, and the
    "1" she typed for the old turn 0.35 s later must not play a move she never heard."""
    now = [100.0]
    teller, model = Teller(clock=lambda: now[0]), ann()
    said(teller, model, LOBBY)
    said(teller, model, SNAPSHOT)
    typist = Typist(model)
    first = m.LegalMoves(sid=4, timeout=3, moves=(
        r.MoveOption(id=0, notation="R1 5->6", move=(0, 1, 0, 6)),))  # fmt: skip
    said(teller, model, first)
    ran_out = m.Events(sid=5, colour=RED, notation="R1 5->6", events=((3, RED, 1), (0, 0, 5, 6)))
    said(teller, model, ran_out)
    said(teller, model, m.Turn(sid=5, colour=RED, card=Card.TWO, hand=None, pile=39))
    offer = m.LegalMoves(sid=5, timeout=3, moves=(
        r.MoveOption(id=7, notation="R1 6->8", move=(0, 2, 0, 8)),))  # fmt: skip
    told = said(teller, model, offer)
    now[0] += 0.35
    answer = command(typist, teller, "1")  # type: ignore[arg-type]
    assert typist.played == []
    assert answer is not None and "nothing was played" in answer[0]
    assert answer[1:] == told  # the turn said again
    assert command(typist, teller, "1") == [] and typist.played == [7]  # type: ignore[arg-type]


def test_a_number_for_a_turn_heard_out_or_after_a_move_of_ones_own_is_played_at_once() -> None:
    now = [100.0]
    teller, model = Teller(clock=lambda: now[0]), ann()
    said(teller, model, LOBBY)
    said(teller, model, SNAPSHOT)
    typist = Typist(model)
    said(teller, model, m.LegalMoves(sid=4, timeout=3, moves=(
        r.MoveOption(id=0, notation="R1 5->6", move=(0, 1, 0, 6)),)))  # fmt: skip
    # a script that answers the moment the offer is said is never held up
    assert command(typist, teller, "1") == [] and typist.played == [0]  # type: ignore[arg-type]
    teller.offer_after_run_out = True  # and after a turn that ran out, once it was heard
    now[0] += 60
    assert command(typist, teller, "1") == [] and typist.played == [0, 0]  # type: ignore[arg-type]


def test_a_new_game_of_play_for_points_begins_and_is_not_a_game_in_progress() -> None:
    """Each fourth pawn starts on its exit in play for points: that is the opening."""
    teller, model = Teller(), ann()
    said(teller, model, dataclasses.replace(LOBBY, variant=Variant.POINTS))
    opening = initial_pawns(Variant.POINTS, (RED, BLUE))
    fresh = dataclasses.replace(SNAPSHOT, variant=Variant.POINTS, pawns=opening,
                                scores=(0, 0, 0, 0))  # fmt: skip
    assert said(teller, model, fresh)[0] == "The game begins: Ann plays red and Bob plays blue."


def test_repeat_says_the_last_turns_again_and_nothing_before_the_first() -> None:
    teller, model = seated()
    assert teller.repeat() == ["Ann, no turn has been played yet."]
    told = []
    for sid in range(5, 5 + RECENT_TURNS + 2):
        lost = m.Events(sid=sid, colour=BLUE, notation="", events=((5, BLUE, 12),))
        told += said(teller, model, lost)
    assert teller.repeat() == told[-RECENT_TURNS:]


def test_a_long_offer_says_the_most_telling_moves_first_and_more_says_the_rest() -> None:
    """Issue 33: a turn of many moves took minutes to hear.  The offer says how many
    there are and the first few, most telling first (home, a bump, leaving START);
    ``more`` says the next ones; a number not said yet is not played."""
    teller, model = seated()
    said(teller, model, dataclasses.replace(SNAPSHOT, sid=4, pawns=(5, 20, 30, 40) + (START,) * 12))
    steps = [r.MoveOption(id=i, notation=f"R{p + 1} +1", move=(0, 1, p, at + 1))
             for i, (p, at) in enumerate(((0, 5), (1, 20), (2, 30), (3, 40), (0, 5), (1, 20)))]
    offer = m.LegalMoves(sid=4, timeout=None, moves=tuple(steps))
    first = said(teller, model, offer)
    assert first[0] == "Ann, your turn: a 1, 6 moves."
    assert [line.split(":")[0] for line in first[1:4]] == ["Move 1", "Move 2", "Move 3"]
    assert first[4:] == ["Type your move's number, more, or help."]
    typist = Typist(model)
    with pytest.raises(ValueError, match="move 6 has not been said yet"):
        command(typist, teller, "6")  # type: ignore[arg-type]
    assert typist.played == []
    rest = teller.more()
    assert [line.split(":")[0] for line in rest[:3]] == ["Move 4", "Move 5", "Move 6"]
    assert rest[3:] == ["Type your move's number, or help."]
    assert teller.more() == ["Ann, that was every move on offer."]
    assert command(typist, teller, "6") == [] and typist.played == [teller.offered[5].id]  # type: ignore[arg-type]


def test_the_listener_is_warned_once_ten_seconds_before_the_time_runs_out() -> None:
    now = [100.0]
    teller, model = Teller(clock=lambda: now[0]), ann()
    said(teller, model, LOBBY)
    said(teller, model, SNAPSHOT)
    said(teller, model, m.LegalMoves(sid=4, timeout=30, moves=(
        r.MoveOption(id=0, notation="R1 5->6", move=(0, 1, 0, 6)),)))  # fmt: skip
    assert teller.warning_in() == 20.0 and teller.warning() is None
    now[0] += 20
    assert teller.warning() == "Ann, 10 seconds left to choose."
    assert teller.warning() is None and teller.warning_in() is None  # (once)
    said(teller, model, m.LegalMoves(sid=4, timeout=30, moves=(
        r.MoveOption(id=0, notation="R1 5->6", move=(0, 1, 0, 6)),)))  # fmt: skip
    teller.played()
    now[0] += 25
    assert teller.warning() is None  # answered: nothing to warn of
    said(teller, model, m.LegalMoves(sid=4, timeout=8, moves=(
        r.MoveOption(id=0, notation="R1 5->6", move=(0, 1, 0, 6)),)))  # fmt: skip
    assert teller.warning_in() is None  # (a time of 10 s or less: none)


def test_turns_lost_before_the_first_move_are_told_with_the_game_begins() -> None:
    """Issue 33: the turns lost before anyone moved come in no events (the first
    snapshot has them): who lost them follows from the turn and the discard count."""
    teller, model = Teller(), ann()
    said(teller, model, LOBBY)
    discarded = [0] * 14
    for card in (Card.FOUR, Card.ELEVEN, Card.TWELVE):
        discarded[card] = 1
    opening = dataclasses.replace(SNAPSHOT, sid=4, pawns=(START,) * 16, turn=RED, discards=3,
                                  top=Card.TWELVE, discarded=tuple(discarded))  # fmt: skip
    assert said(teller, model, opening) == [
        "The game begins: Ann plays red and Bob plays blue.",
        "3 turns were lost before the first move: Bob (2 turns) and Ann had no move, with a "
        "4, an 11 and a 12.",
    ]


def test_the_standings_of_a_game_for_points_give_each_players_points() -> None:
    teller, model = Teller(), ann()
    said(teller, model, dataclasses.replace(LOBBY, variant=Variant.POINTS))
    hand = (Card.ONE, Card.TWO, Card.FOUR, Card.TEN, Card.SORRY)
    said(teller, model, dataclasses.replace(SNAPSHOT, variant=Variant.POINTS, card=None, hand=hand,
                                            scores=(0,) * 4))  # fmt: skip
    over = m.GameOver(sid=9, winners=(BLUE,), scores=(5, 90, 0, 0))
    assert said(teller, model, over)[:2] == [
        "The game is over: Bob won.",
        "The standings: place 1: Bob, 90 points; place 2: Ann, 5 points.",
    ]


def test_pawn_and_its_number_says_that_pawns_moves_which_a_number_then_plays() -> None:
    """Issue 33: a listener who wants one pawn's moves asks for them (``pawn 2`` or
    ``p2``) instead of hearing the offer through; the moves said so can be played by
    their number in the offer, and ``more`` still says those not said yet."""
    teller, model = seated()
    said(teller, model, dataclasses.replace(SNAPSHOT, sid=4, pawns=(5, 20, 30, 40) + (START,) * 12))
    steps = [r.MoveOption(id=i, notation=f"R{p + 1} +1", move=(0, 1, p, at + 1))
             for i, (p, at) in enumerate(((0, 5), (1, 20), (2, 30), (3, 40), (0, 5), (1, 20)))]
    said(teller, model, m.LegalMoves(sid=4, timeout=None, moves=tuple(steps)))
    typist = Typist(model)
    fourth = command(typist, teller, "pawn 4")  # type: ignore[arg-type]
    assert fourth is not None
    number = next(i for i, o in enumerate(teller.offered, 1) if o.id == 3)
    assert number > 3  # (not among the first moves said)
    assert fourth[0].startswith(f"Move {number}: your pawn 4 ")
    assert fourth[1:] == ["Type your move's number, more, or help."]
    second = command(typist, teller, "p2")  # type: ignore[arg-type]
    assert second is not None
    assert [line.split(":")[0] for line in second[:-1]] == [
        f"Move {i}" for i, o in enumerate(teller.offered, 1) if o.parts[0].pawn == 1
    ]
    assert all("your pawn 2 " in line for line in second[:-1])
    assert command(typist, teller, "pawn 7") == ["Ann, your pawns are 1 to 4."]  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="type pawn and its number"):
        command(typist, teller, "pawn")  # type: ignore[arg-type]
    assert command(typist, teller, str(number)) == [] and typist.played == [3]  # type: ignore[arg-type]


def test_pawn_with_no_move_on_offer_says_so() -> None:
    teller, model = seated()
    said(teller, model, m.LegalMoves(sid=4, timeout=None, moves=(
        r.MoveOption(id=0, notation="R1 5->6", move=(0, 1, 0, 6)),)))  # fmt: skip
    assert teller.pawn_moves(3) == ["Ann, no move on offer moves your pawn 3."]
    assert teller.pawn_moves(1)[0].startswith("Move 1: your pawn 1 ")


@pytest.mark.parametrize("lang", ["en", "el", "hi"])
def test_a_hand_that_ends_in_sorry_ends_its_sentence_once(lang: str) -> None:
    from sorry_lan.i18n import use_language
    from sorry_lan.tui.telling import your_hand

    with use_language(lang):
        text = your_hand((Card.SORRY, Card.ONE))
        plain = your_hand((Card.ONE, Card.TWO))
    assert "!." not in text and "!।" not in text and text[-1] in "!।", text
    assert plain[-1] in ".।", plain
