"""Fixed example messages: at least one of every type, with made-up game content.

They are the source of the golden vectors (``scripts/gen_vectors.py``, which gives a
message with no sample here the example made from its field specs), the seeds the
fuzzer mutates, and fixtures for tests.  The game content is plausible but was not
produced by the engine; nothing here should be read as a rules example.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from dataclasses import replace

from sorry_lan.rules.board import HOME, START, Colour
from sorry_lan.rules.cards import NO_CARDS, Card
from sorry_lan.rules.variants import Variant
from sorry_lan.succession.commitment import hand_digest
from sorry_lan.wire.auth import pin_key, pin_proof
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.limits import PROTOCOL_VERSION, SUPPORTED_VERSIONS
from sorry_lan.wire.messages import (
    AddBot,
    AnswerSwap,
    AskMoreTime,
    AskSwap,
    Bye,
    Challenge,
    Chat,
    ChooseColour,
    Commit,
    Error,
    Events,
    GameOver,
    Handover,
    Hello,
    LegalMoves,
    Lobby,
    Message,
    MoreTime,
    Move,
    Offer,
    Ping,
    Pong,
    Profile,
    Proof,
    Ready,
    RecordPart,
    Refuse,
    Rematch,
    RemoveBot,
    Resync,
    Reveal,
    Settled,
    SetVariant,
    Snapshot,
    Spectate,
    Start,
    Succession,
    Turn,
    Welcome,
)
from sorry_lan.wire.records import (
    MoveOption,
    PlayerInfo,
    ev_bump,
    ev_discard,
    ev_draw_again,
    ev_move,
    ev_play,
    ev_reshuffle,
    ev_slide,
    ev_turn_lost,
)
from sorry_lan.wire.succession import ChatLine, Laptop, SeatRecord, TableSettings
from sorry_lan.wire.vocab import ByeReason, RefuseReason

R, B, Y, G = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN
TOKEN = bytes(range(16))
HOST_NONCE = bytes(range(100, 116))
CLIENT_NONCE = bytes(range(200, 216))
SOFT = "sorry-lan/0.1.0"
PIN = "1234"  # the PIN behind the "proof" sample
_START_PAWNS = (START,) * 16
_S = START
POINTS_HAND = (Card.ONE, Card.SEVEN, Card.SEVEN, Card.ELEVEN, Card.SORRY)
POINTS_PAWNS = (4, _S, _S, _S, 19, _S, _S, _S, 34, _S, _S, _S, 49, _S, _S, _S)

LOBBY_PLAYERS = (
    PlayerInfo(pid=0, name="Ann", colour=R, bot=False, ready=True, connected=True),
    PlayerInfo(pid=1, name="Bob", colour=None, bot=False, ready=False, connected=True),
    PlayerInfo(pid=2, name="bot-greedy", colour=Y, bot=True, ready=True, connected=True),
)
#: A version-2 roster: languages from the players' profiles, a remote bot program.
LOBBY_PLAYERS_V2 = (
    PlayerInfo(pid=0, name="Ann", colour=R, bot=False, ready=True, connected=True, lang="cy"),
    PlayerInfo(pid=1, name="Βασίλης", colour=B, bot=False, ready=False, connected=True,
               lang="el"),
    PlayerInfo(pid=2, name="bot-greedy", colour=Y, bot=True, ready=True, connected=True),
    PlayerInfo(pid=3, name="robo", colour=G, bot=False, ready=True, connected=True,
               program=True),
)

#: The start of a game record (protocol/RECORD.md) as a ``record`` message carries it: a
#: zlib stream (stored, level 0: the same bytes from every zlib) of its UTF-8 JSON.
RECORD_JSON = json.dumps(
    {"format": "sorry-lan game record", "version": 2, "table": "Ann's table",
     "variant": "standard", "seed": None, "turns": []},
).encode()
RECORD_DATA = zlib.compress(RECORD_JSON, 0)

#: Protocol version 4.  A table of Ann (the host, red, pid 0), Bob (blue, pid 1, a
#: laptop), Chloé (green, pid 3, a laptop on two networks) and a greedy bot (yellow),
#: with the seat tokens below (``vectors/commitments.json`` gives their verifiers).
TABLE_ID = "k3v9q2m7x4"
SEAT_TOKENS = {0: bytes(range(16)), 1: bytes(range(16, 32)), 3: bytes(range(32, 48))}
SEAT_RECORDS = (
    SeatRecord(pid=0, colour=R, verifier=hashlib.sha256(SEAT_TOKENS[0]).digest(), level=None),
    SeatRecord(pid=1, colour=B, verifier=hashlib.sha256(SEAT_TOKENS[1]).digest(), level=None),
    SeatRecord(pid=2, colour=Y, verifier=None, level="greedy"),
    SeatRecord(pid=3, colour=G, verifier=hashlib.sha256(SEAT_TOKENS[3]).digest(), level=None),
)
LAPTOPS = (
    Laptop(pid=1, addrs=("192.168.1.23",), port=47475),
    Laptop(pid=3, addrs=("192.168.1.40", "fd00::28"), port=47475),
)
SETTINGS = TableSettings(
    name="Ann's table", variant=Variant.POINTS, seats=4, turn_timeout_ms=None,
    grace_ms=60_000, bot_delay_ms=500, bot_level="greedy", bot_budget_ms=None,
    pin_verifier=pin_key(PIN), seeded=False, auto_start=False,
)
#: A points deal, by colour: each seat's salt and the hand it commits to.
DEAL: tuple[tuple[bytes, tuple[Card, ...]], ...] = (
    (bytes(range(80, 96)), (Card.ELEVEN, Card.ONE, Card.EIGHT, Card.FOUR, Card.THREE)),
    (bytes(range(48, 64)), (Card.TWO, Card.FIVE, Card.TEN, Card.TWELVE, Card.SORRY)),
    (bytes(range(96, 112)), (Card.ONE, Card.ONE, Card.SEVEN, Card.TEN, Card.TWELVE)),
    (bytes(range(64, 80)), POINTS_HAND),
)
DIGESTS = tuple(hand_digest(salt, hand) for salt, hand in DEAL)
BOB_SALT, BOB_HAND = DEAL[B]
YELLOW_SALT = DEAL[Y][0]

V5 = (1, 2, 3, 4, 5)  # (the version-5 vectors stay as they were when version 6 came)

SAMPLES: tuple[tuple[str, Message], ...] = (
    # (versions 1-4 written out: these vectors stay as they were when version 5 came)
    ("hello", Hello(versions=(1, 2, 3, 4), software=SOFT, name="Ann", token=None)),
    ("hello_rejoin", Hello(versions=(1, 2), software=SOFT, name="Ann", token=TOKEN)),
    (
        "hello_vote_v5",  # Ann's laptop votes at a standby: its newest state, 57 of epoch 2
        Hello(versions=V5, software=SOFT, name="Ann", token=TOKEN, seen=(2, 57)),
    ),
    ("spectate", Spectate(versions=(1, 2, 3, 4), software=SOFT, name="Zoë")),
    ("hello_v5", Hello(versions=V5, software=SOFT, name="Ann", token=None)),
    ("hello_v6", Hello(versions=SUPPORTED_VERSIONS, software=SOFT, name="Ann", token=None)),
    ("challenge", Challenge(version=PROTOCOL_VERSION, nonce=HOST_NONCE)),
    ("proof", Proof(cnonce=CLIENT_NONCE, mac=pin_proof(PIN, HOST_NONCE, CLIENT_NONCE))),
    (
        "welcome",
        Welcome(version=1, software=SOFT, pid=0, token=TOKEN, owner=True, name="Ann"),
    ),
    (
        "welcome_v2",
        Welcome(version=2, software=SOFT, pid=1, token=TOKEN, owner=False, name="Βασίλης"),
    ),
    (
        "welcome_v5",
        Welcome(version=5, software=SOFT, pid=1, token=TOKEN, owner=False, name="Bob"),
    ),
    (
        "welcome_spectator",
        Welcome(version=1, software=SOFT, pid=None, token=None, owner=False, name="Zoë"),
    ),
    ("refuse_version", Refuse(reason=RefuseReason.VERSION, text="host speaks 1", versions=(1,))),
    ("refuse_full", Refuse(reason=RefuseReason.FULL, text="all four seats taken", versions=(1,))),
    (
        "lobby",
        Lobby(variant=Variant.STANDARD, seats=4, host=0, players=LOBBY_PLAYERS, spectators=1),
    ),
    (
        "lobby_v2_languages",
        Lobby(variant=Variant.STANDARD, seats=4, host=0, players=LOBBY_PLAYERS_V2, spectators=0),
    ),
    (
        "lobby_v6_swap",  # Bob (pid 1) asks Ann (pid 0) to trade colours
        Lobby(variant=Variant.STANDARD, seats=4, host=0, players=LOBBY_PLAYERS, spectators=0,
              hints=False, swaps=((1, 0),)),
    ),
    ("swap", AskSwap(pid=0)),
    ("swap_withdrawn", AskSwap(pid=None)),
    ("swap_answer", AnswerSwap(pid=1, accept=True)),
    ("swap_declined", AnswerSwap(pid=1, accept=False)),
    ("profile", Profile(lang="el", program=False)),
    ("profile_program", Profile(lang=None, program=True)),
    ("choose_colour", ChooseColour(colour=B)),
    ("ready", Ready(ready=True)),
    ("add_bot", AddBot(colour=G, level="greedy")),
    ("add_bot_any", AddBot(colour=None, level="random")),
    ("add_bot_host_strength", AddBot(colour=None, level=None)),
    ("remove_bot", RemoveBot(pid=2)),
    ("set_variant", SetVariant(variant=Variant.POINTS)),
    ("start", Start()),
    (
        "snapshot",
        Snapshot(
            sid=17,
            variant=Variant.STANDARD,
            you=B,
            colours=(R, B, Y),
            pawns=(4, START, START, 12, 19, 62, START, START, HOME, *_START_PAWNS[9:]),
            turn=R,
            card=Card.TWELVE,
            hand=None,
            pile=30,
            discards=12,
            top=Card.SORRY,
            # 12 cards: two 1s, a 2, a 3, a 4, two 5s, a 7, an 8, a 10, a 12, a Sorry!
            discarded=(0, 2, 1, 1, 1, 2, 0, 1, 1, 0, 1, 0, 1, 1),
            scores=None,
        ),
    ),
    (
        "snapshot_v1",  # the same, to a connection on protocol version 1: no discard pile
        Snapshot(
            sid=17,
            variant=Variant.STANDARD,
            you=B,
            colours=(R, B, Y),
            pawns=(4, START, START, 12, 19, 62, START, START, HOME, *_START_PAWNS[9:]),
            turn=R,
            card=Card.TWELVE,
            hand=None,
            pile=30,
            discards=12,
            top=Card.SORRY,
            discarded=None,
            scores=None,
        ),
    ),
    (
        "snapshot_points_spectator",
        Snapshot(
            sid=3,
            variant=Variant.POINTS,
            you=None,
            colours=(R, B, Y, G),
            pawns=POINTS_PAWNS,
            turn=G,
            card=None,
            hand=None,
            pile=25,
            discards=0,
            top=None,
            discarded=NO_CARDS,
            scores=(0, 0, 0, 0),
        ),
    ),
    (
        "snapshot_points_own_hand",
        Snapshot(
            sid=3,
            variant=Variant.POINTS,
            you=G,
            colours=(R, B, Y, G),
            pawns=POINTS_PAWNS,
            turn=G,
            card=None,
            hand=POINTS_HAND,
            pile=25,
            discards=0,
            top=None,
            discarded=NO_CARDS,
            scores=(0, 0, 0, 0),
        ),
    ),
    ("turn", Turn(sid=18, colour=R, card=Card.SEVEN, hand=None, pile=29)),
    (
        "turn_points_own",
        Turn(sid=4, colour=G, card=None, hand=POINTS_HAND, pile=25),
    ),
    (
        "legal_moves",
        LegalMoves(
            sid=18,
            moves=(
                MoveOption(0, "R1 4->11", (0, 7, 0, 11)),
                MoveOption(1, "7: R1 4->8, R4 12->15", (1, 7, 0, 8, 3, 15)),
                MoveOption(2, "R4 12->19", (0, 7, 3, 19)),
            ),
            timeout=None,
        ),
    ),
    (
        "legal_moves_eleven",
        LegalMoves(
            sid=40,
            moves=(
                MoveOption(0, "R1 23 <-> B2 40", (2, 11, 0, 5)),
                MoveOption(1, "decline the 11", (4, 11)),
            ),
            timeout=30,
        ),
    ),
    (
        "legal_moves_points",
        LegalMoves(
            sid=4,
            moves=(
                MoveOption(0, "Sorry! G2 start->19 bumps B1", (3, 13, 13, 4)),
                MoveOption(1, "discard 7", (5, 7)),
            ),
            timeout=None,
        ),
    ),
    ("move", Move(sid=18, id=1)),
    ("more_time", AskMoreTime()),
    ("time", MoreTime(sid=40, colour=R, more=30, left=42)),  # asked with 12 s left of 30
    (
        "events",
        Events(
            sid=19,
            colour=R,
            notation="R3 9->13 slide, bumps B2",
            events=(
                ev_play(R, 4),
                ev_move(2, 13, 9),
                ev_slide(2, 9, 13),
                ev_bump(5, 11),
            ),
        ),
    ),
    (
        "events_turn_lost",
        Events(
            sid=20,
            colour=B,
            notation="",
            events=(ev_turn_lost(B, 2), ev_draw_again(B), ev_reshuffle(38)),
        ),
    ),
    (
        "events_declined_11",  # the move [4, 11]: a TURN_LOST in place of the PLAY
        Events(
            sid=43,
            colour=Y,
            notation="decline the 11 (turn lost)",
            events=(ev_turn_lost(Y, 11),),
        ),
    ),
    (
        "events_discard",
        Events(sid=5, colour=G, notation="discard 7", events=(ev_discard(G, 7),)),
    ),
    ("game_over", GameOver(sid=301, winners=(Y,), scores=None)),
    ("game_over_team", GameOver(sid=402, winners=(B, G), scores=None)),
    ("game_over_points", GameOver(sid=150, winners=(R,), scores=(145, 10, 5, 0))),
    ("rematch", Rematch()),
    ("record", RecordPart(game=1, part=0, parts=1, data=RECORD_DATA)),
    ("offer", Offer(port=47475, addrs=("192.168.1.23",))),
    ("offer_two_networks", Offer(port=47475, addrs=("192.168.1.40", "fd00::28"))),
    (
        "succession",
        Succession(
            table=TABLE_ID, epoch=1, host=0, delay=15, order=LAPTOPS, config=SETTINGS,
            seats=SEAT_RECORDS,
            chat=(ChatLine(pid=1, text="nice Sorry!"), ChatLine(pid=0, text="thanks ☺")),
        ),
    ),
    (
        "succession_epoch_2",  # the same table after Bob's laptop took it over
        Succession(
            table=TABLE_ID, epoch=2, host=1, delay=15, order=LAPTOPS[1:], config=SETTINGS,
            seats=SEAT_RECORDS, chat=(ChatLine(pid=1, text="nice Sorry!"),),
        ),
    ),
    (
        "succession_headless",  # a headless, seeded, timed table in its lobby
        Succession(
            table="p8w2c6", epoch=1, host=None, delay=20, order=LAPTOPS,
            config=TableSettings(
                name="Games night", variant=Variant.STANDARD, seats=3,
                turn_timeout_ms=30_000, grace_ms=90_000, bot_delay_ms=0, bot_level="expert",
                bot_budget_ms=2_000, pin_verifier=None, seeded=True, auto_start=True,
            ),
            seats=(replace(SEAT_RECORDS[1], colour=None), replace(SEAT_RECORDS[3], colour=None)),
            chat=(),
        ),
    ),
    (
        "succession_hints",  # that headless table with hints on, taken over by Bob's laptop
        Succession(
            table="p8w2c6", epoch=2, host=1, delay=20, order=LAPTOPS[1:],
            config=TableSettings(
                name="Games night", variant=Variant.STANDARD, seats=3,
                turn_timeout_ms=30_000, grace_ms=90_000, bot_delay_ms=0, bot_level="expert",
                bot_budget_ms=2_000, pin_verifier=None, seeded=True, auto_start=True,
                hints=True,
            ),
            seats=(SEAT_RECORDS[1], SEAT_RECORDS[3]),
            chat=(),
        ),
    ),
    ("commit", Commit(sid=4, digests=DIGESTS, salt=BOB_SALT)),
    ("commit_two_seats", Commit(sid=4, digests=(DIGESTS[0], None, DIGESTS[2], None),
                                salt=YELLOW_SALT)),
    ("reveal", Reveal(hand=BOB_HAND, salt=BOB_SALT)),
    ("handover", Handover(epoch=2, pid=1)),
    ("settled", Settled(sid=4)),
    ("chat_from_client", Chat(pid=None, text="good luck!")),
    ("chat_relayed", Chat(pid=1, text="Sorry! ☺")),
    ("ping", Ping(n=7)),
    ("pong", Pong(n=7)),
    (
        "error_unexpected",
        Error(reason=ErrorReason.UNEXPECTED, text="move not allowed in lobby", fatal=False),
    ),
    ("error_malformed", Error(reason=ErrorReason.MALFORMED, text="not msgpack", fatal=True)),
    ("resync", Resync()),
    ("bye", Bye(reason=ByeReason.QUIT)),
)
