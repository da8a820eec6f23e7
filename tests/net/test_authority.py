"""The host is the authority: refused moves change nothing; nobody learns hidden cards."""

from __future__ import annotations

import os

import pytest
from netkit import RawClient, bots_play, start_host

from sorry_lan.bots import make_bot, position_of
from sorry_lan.net.host import HostServer
from sorry_lan.rules import Game, Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import Decoder
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS
from sorry_lan.wire.vocab import RefuseReason


def state(server: HostServer) -> tuple[object, ...]:
    game = server.table.game
    assert game is not None
    return (game.state_id, game.pawns, game.turn, game.card, len(game.deck.pile), game.moves_played)


async def two_players(server: HostServer) -> tuple[RawClient, RawClient, RawClient, RawClient]:
    """(player to move, the other player, same two again by seat order) once started."""
    a = await RawClient.open(server.address[1])
    b = await RawClient.open(server.address[1])
    assert isinstance(await a.hello("alice"), m.Welcome)
    assert isinstance(await b.hello("bob"), m.Welcome)
    snap_a = await a.expect(m.Snapshot)
    await b.expect(m.Snapshot)
    assert isinstance(snap_a, m.Snapshot)
    if snap_a.turn == snap_a.you:
        return a, b, a, b
    return b, a, a, b


@pytest.mark.asyncio
async def test_bad_moves_are_refused_with_their_reason_and_change_nothing() -> None:
    server = await start_host(Variant.STANDARD, seats=2, seed=11)
    mover, other, a, b = await two_players(server)
    spectator = await RawClient.open(server.address[1])
    try:
        offer = await mover.expect(m.LegalMoves)
        assert isinstance(offer, m.LegalMoves)
        before = state(server)

        async def refused(client: RawClient, move: m.Move) -> ErrorReason:
            client.send(move)
            err = await client.expect(m.Error)
            assert isinstance(err, m.Error) and not err.fatal
            assert state(server) == before
            return err.reason

        bad_id = len(offer.moves) + 3
        assert await refused(mover, m.Move(sid=offer.sid, id=bad_id)) is ErrorReason.ILLEGAL
        assert await refused(other, m.Move(sid=offer.sid, id=0)) is ErrorReason.NOT_YOUR_TURN
        assert await refused(mover, m.Move(sid=offer.sid - 1, id=0)) is ErrorReason.STALE
        spectator.send(m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="eve"))
        await spectator.expect(m.Welcome)
        await spectator.expect(m.Snapshot)
        # a connection without the seat cannot move for it
        assert await refused(spectator, m.Move(sid=offer.sid, id=0)) is ErrorReason.FORBIDDEN

        intruder = await RawClient.open(server.address[1])
        refusal = await intruder.hello("mallory", token=os.urandom(16))
        assert isinstance(refusal, m.Refuse) and refusal.reason is RefuseReason.BAD_TOKEN
        assert state(server) == before
        await intruder.close()

        # and the right move from the right seat is taken
        mover.send(m.Move(sid=offer.sid, id=0))
        await mover.expect(m.Events)
        assert state(server) != before
    finally:
        for c in (a, b, spectator):
            await c.close()
        await server.close()


History = dict[int, tuple[object, dict[int, tuple[object, ...]]]]


def _card_history(variant: Variant, seated: tuple[int, ...], seed: int) -> History:
    """sid -> (card in play, hands) of the same game played offline."""
    game = Game(variant, seated, seed=seed)
    game.start()
    seen: History = {}

    def note() -> None:
        seen[game.state_id] = (game.card, {c: tuple(h) for c, h in game.hands.items()})

    note()
    while not game.over:
        game.play(make_bot("greedy").choose(position_of(game), game.legal_moves()))
        note()
    return seen


@pytest.mark.asyncio
@pytest.mark.parametrize("variant", [Variant.POINTS, Variant.STANDARD])
async def test_nothing_received_reveals_a_hand_or_a_card_before_its_draw(variant: Variant) -> None:
    seed = 23
    server = await start_host(variant, seats=3, seed=seed)
    captures = [bytearray() for _ in range(3)]
    try:
        port = server.address[1]
        from sorry_lan.net.botrunner import run_bot
        from sorry_lan.net.client import GameClient

        clients = [GameClient("127.0.0.1", port, f"p{i}", capture=captures[i]) for i in range(3)]
        for c in clients:
            await c.connect()
        import asyncio

        await asyncio.gather(*(run_bot(c) for c in clients))
        game = server.table.game
        assert game is not None and game.over
        history = _card_history(variant, game.seated, seed)
        tokens = [c.token for c in clients]
        for i, raw in enumerate(captures):
            for j, token in enumerate(tokens):
                assert token is not None
                assert (token in raw) == (i == j)  # one's own token only
            you = clients[i].colour
            checked_hands = 0
            for msg in Decoder().feed(bytes(raw)):
                if isinstance(msg, m.Turn | m.Snapshot):
                    card, hands = history[msg.sid]
                    assert msg.card == card  # the card in play, never one still in the pile
                    if msg.hand is not None:
                        assert you is not None
                        assert (msg.colour if isinstance(msg, m.Turn) else msg.you) == you
                        assert tuple(msg.hand) == hands[you]
                        checked_hands += 1
                else:
                    allowed = (m.Welcome, m.Lobby, m.Events, m.LegalMoves, m.GameOver, m.Ping)
                    assert isinstance(msg, allowed), f"unexpected message {msg.TYPE}"
            if variant is Variant.POINTS:
                assert checked_hands > 0
        for c in clients:
            await c.close()
    finally:
        await server.close()


@pytest.mark.asyncio
async def test_team_game_with_host_bots_filling_seats() -> None:
    server = await start_host(Variant.TEAM, seats=4, bots=3, seed=5)
    try:
        clients, results, _ = await bots_play(server, ["only human"])
        assert results[0] is not None and len(results[0].winners) == 2
        await clients[0].close()
    finally:
        await server.close()
