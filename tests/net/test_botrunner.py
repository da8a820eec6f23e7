"""The networked bot's view: built from the host's messages only, it is the Position the
host's own bots judge, and every strength plays the same move there as the host's bot
and ``sorry-lan simulate``'s."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
from netkit import LOCAL, start_host

from sorry_lan.authority import seat_messages as convert
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import BotTurn
from sorry_lan.bots import STRENGTHS, make_bot, master, position_of, registry
from sorry_lan.bots.expert import ExpertBot
from sorry_lan.client.model import ClientEvent, ClientModel
from sorry_lan.commands.simulate import seat_decider
from sorry_lan.net.botrunner import BotNews, BotStats, SeatView, choose_option, run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.journal import load
from sorry_lan.rules import Card, Game, Move, Variant
from sorry_lan.rules.cards import card_counts
from sorry_lan.wire import messages as m
from sorry_lan.wire.session import HostSession


class Told:
    """A client model told what the host tells one seat (a host session in memory):
    the seat's view is read from the model's table view, as ``run_bot`` reads it."""

    def __init__(self, colour: int | None) -> None:
        self.model = ClientModel(f"seat{colour}", spectate=colour is None)
        self.host = HostSession(pin_key=None, versions=(1, 2, 3, 4))
        self.model.join(0.0)
        self.host.receive_data(self.model.data_to_send())
        self.host.welcome(colour, b"t" * 16, name=self.model.name)
        self.tell()

    def tell(self, *msgs: m.Message) -> None:
        for msg in msgs:
            self.host.send(msg)
        self.model.receive_data(self.host.data_to_send(), 0.0)
        self.host.receive_data(self.model.data_to_send())

    @property
    def view(self) -> SeatView:
        return SeatView.of(self.model.view)


def _follow(variant: Variant, seated: tuple[int, ...], seed: int, strength: str,
            join_after: int = 0) -> int:
    """Play a game with ``strength`` bots everywhere; at each decision compare the three
    ways a bot is driven, the networked seats having joined after ``join_after`` moves.
    Returns how many decisions were compared."""
    game = Game(variant, seated, seed=seed)
    game.start()
    for _ in range(join_after):
        game.play(game.legal_moves()[0])
    views = {c: Told(c) for c in seated}
    for c, told in views.items():
        told.tell(convert.snapshot(game, c))
    bot = make_bot(strength, 0, budget=60.0)
    compared = 0
    times: list[float] = []
    simulated = seat_decider(variant, game.seated, dict.fromkeys(game.seated, bot),
                             dict.fromkeys(game.seated, times), {c: [] for c in game.seated})
    while not game.over and compared < 60:
        seat = game.turn
        moves = game.legal_moves()
        views[seat].tell(convert.turn(game, seat))
        view = views[seat].view
        offer = convert.legal_moves(game)
        assert views[seat].model.view.pawns == game.pawns
        found = view.decision(game.pawns, seat, offer)
        assert found is not None
        assert found[0] == position_of(game)  # what the seat was told is all it needs
        assert found[1] == moves
        host = BotTurn(0, game.state_id, strength, 60.0, position_of(game),
                       tuple(moves)).decide()
        net = moves[[o.id for o in offer.moves].index(
            choose_option(bot, view, game.pawns, seat, offer))]
        cards = tuple(game.hands[seat]) if variant.rules.deals_hands else (game.card,)
        counts = list(card_counts(game.deck.discards))
        sim: Move = simulated(game.pawns, seat, cards, game.after_two, counts, moves)  # type: ignore[arg-type]
        assert host == net == sim
        compared += 1
        events = game.play(host)
        for c, told in views.items():
            told.tell(*convert.events_messages(game, events, c))
    return compared


@pytest.mark.parametrize("strength", STRENGTHS)
@pytest.mark.parametrize(
    ("variant", "seated"),
    [(Variant.STANDARD, (0, 2)), (Variant.TEAM, (0, 1, 2, 3)), (Variant.POINTS, (1, 2, 3))],
)
def test_host_network_and_simulate_bots_choose_the_same_moves(
    strength: str, variant: Variant, seated: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(master, "WORK", 500)  # the master's 60 decisions, in seconds
    # the expert's too (a quarter of its work; each of the three ways asks it alike)
    expert = partial(ExpertBot, work=300, deep_work=750)
    monkeypatch.setitem(registry.FACTORIES, "expert", expert)
    # 60 decisions, or the whole game if it ends sooner (two experts finish seed 5's
    # standard game in 56).
    assert _follow(variant, seated, 5, strength) >= 50


@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.POINTS], ids=lambda v: v.value)
def test_a_bot_that_joins_mid_game_knows_the_cards_lost_before_it_came(
    variant: Variant,
) -> None:
    """The discard pile is public: the snapshot tells a late seat what is on it, and
    its Position (discards included) is the host's, whatever it plays."""
    assert _follow(variant, (0, 2), 8, "greedy", join_after=15) == 60
    game = Game(variant, (0, 2), seed=8)
    game.start()
    for _ in range(15):
        game.play(game.legal_moves()[0])
    told = Told(game.turn)
    told.tell(convert.snapshot(game, game.turn))
    assert sum(told.view.discards) == len(game.deck.discards) > 0


def test_an_offer_the_engine_does_not_list_is_played_as_offered() -> None:
    game = Game(Variant.STANDARD, (0, 2), seed=3)
    game.start()
    told = Told(game.turn)
    told.tell(convert.snapshot(game, game.turn))
    view = told.view
    offer = convert.legal_moves(game)
    assert view.decision(game.pawns, game.turn, offer) is not None
    # A card the offer does not belong to (a 3 moves no pawn out of START): the first
    # option is played rather than a guess.
    view = replace(view, cards=(Card.THREE,))
    assert view.decision(game.pawns, game.turn, offer) is None
    bot = make_bot("greedy")
    assert choose_option(bot, view, game.pawns, game.turn, offer) == offer.moves[0].id


@pytest.mark.asyncio
async def test_a_bot_asked_for_moves_tells_each_one_as_the_journal_has_it(
    tmp_path: Path,
) -> None:
    """Each move's events reach ``progress`` once, in order: the n-th is the journal's
    n-th move, by the colour whose pawn moved, at a later state id."""
    journal = tmp_path / "t.journal"
    server = await start_host(seats=2, journal=journal)
    seen: list[tuple[int, int | None]] = []
    other: list[object] = []

    def progress(news: BotNews, number: int, total: int) -> None:
        if isinstance(news, m.Events):
            seen.append((news.sid, None if news.colour is None else int(news.colour)))
        else:
            other.append(news)

    try:
        port = server.address[1]
        clients = [GameClient(LOCAL, port, name) for name in ("a", "b")]
        for client in clients:
            await client.connect()
        quiet: list[BotNews] = []
        await asyncio.gather(
            run_bot(clients[0], progress=progress, moves=True),
            run_bot(clients[1], progress=lambda news, n, t: quiet.append(news)),
        )
        for client in clients:
            await client.close()
    finally:
        await server.close()
        if server.journal is not None:
            server.journal.close()
    moves = [r for r in load(journal) if r["k"] == "move"]
    assert [colour for _sid, colour in seen] == [r["m"][2] // 4 for r in moves]
    assert all(sid > r["sid"] for (sid, _colour), r in zip(seen, moves, strict=True))
    assert other and not any(isinstance(news, m.Events) for news in quiet)


@pytest.mark.asyncio
async def test_a_bot_shown_a_game_over_again_counts_that_game_once() -> None:
    """A bot told to play two games whose connection drops just after the first one
    ends is shown that game and its result again when it comes back: it plays the
    rematch, and says each game begin and end once."""
    server = await start_host(seats=2, seed=5, options=HostOptions(
        heartbeat=0.5, dead_after=3.0, stay=True))  # fmt: skip
    port = server.address[1]
    clients = [GameClient(LOCAL, port, name, ClientOptions(reconnect_for=10))
               for name in ("drops", "stays")]  # fmt: skip
    said: list[tuple[str, int]] = []

    def progress(news: BotNews, number: int, total: int) -> None:
        if isinstance(news, m.GameOver | m.Snapshot):
            said.append((type(news).__name__, number))
        if isinstance(news, m.GameOver) and number == 1:
            clients[0].abort()  # gone as the result came: shown it again on return

    try:
        for client in clients:
            await client.connect()
        while any(c.model.snapshot is None for c in clients):  # the game began: each
            await asyncio.sleep(0.01)  # was shown it before its bot reads (it still says so)
        stats = [BotStats(), BotStats()]
        results = await asyncio.wait_for(asyncio.gather(
            run_bot(clients[0], games=2, stats=stats[0], progress=progress),
            run_bot(clients[1], games=2, stats=stats[1]),
        ), 30)  # fmt: skip
        assert all(r is not None for r in results)
        assert [s.games for s in stats] == [2, 2]
        assert server.table.games_played == 2 and server.table.game is not None
        assert server.table.game.over
        assert said == [("Snapshot", 1), ("GameOver", 1), ("Snapshot", 2), ("GameOver", 2)]
    finally:
        for client in clients:
            await client.close()
        await server.close()


@pytest.mark.asyncio
async def test_the_result_names_the_players_as_the_bot_read_them_not_who_left_since(
) -> None:
    """A player who leaves right after the game is gone from the model's lobby before a
    slower bot reads the result: the bot's names are those of the roster it read up to
    the result (``sorry-lan bot`` printed "Yellow won." for "Yellow (b2) won.")."""
    server = await start_host(seats=2, seed=7)
    try:
        port = server.address[1]
        slow, quick = (GameClient(LOCAL, port, n, ClientOptions()) for n in ("slow", "quick"))
        for c in (slow, quick):
            await c.connect()
        real_next = slow.next_event

        async def next_event() -> ClientEvent:
            ev = await real_next()
            if isinstance(ev, m.GameOver):  # hold the result until the quick one left
                for _ in range(200):
                    lobby = slow.model.lobby
                    if lobby is not None and all(p.name != "quick" for p in lobby.players):
                        break
                    await asyncio.sleep(0.02)
                else:
                    raise AssertionError("the player who left stayed in the lobby")
            return ev

        slow.next_event = next_event  # type: ignore[method-assign]
        stats = BotStats()

        async def quick_plays() -> m.GameOver | None:
            try:
                return await run_bot(quick)
            finally:
                await quick.close()

        results = await asyncio.wait_for(
            asyncio.gather(run_bot(slow, stats=stats), quick_plays()), 30
        )
        assert results[0] is not None
        assert stats.roster is not None
        assert {p.name for p in stats.roster.players} == {"slow", "quick"}
        await slow.close()
    finally:
        await server.close()


@pytest.mark.asyncio
async def test_a_bot_program_accepts_an_ask_to_trade_colours() -> None:
    """``sorry-lan bot`` prefers no colour: asked in the lobby, it accepts."""
    server = await start_host(seats=3)  # (a third seat stays free: no game starts)
    port = server.address[1]
    ann = GameClient(LOCAL, port, "ann", ClientOptions())
    robo = GameClient(LOCAL, port, "robo", ClientOptions(program=True))
    try:
        await ann.connect()
        await robo.connect()
        playing = asyncio.create_task(run_bot(robo))
        for _ in range(100):
            if ann.model.lobby is not None and len(ann.model.lobby.players) == 2:
                break
            await asyncio.sleep(0.02)
        assert (ann.model.colour, robo.model.colour) == (0, 1)
        assert robo.model.pid is not None
        ann.ask_swap(robo.model.pid)
        for _ in range(250):
            if ann.model.colour == 1:
                break
            await asyncio.sleep(0.02)
        assert (ann.model.colour, robo.model.colour) == (1, 0)
        playing.cancel()
    finally:
        await ann.close()
        await robo.close()
        await server.close()
