"""Trading colours at a full table (SPEC ``swap``, ``swap_answer``, protocol version
6), at the host core: a player asks the holder of a colour, who accepts (the two
colours change in one step) or declines; the host checks every request; an ask goes
when either player leaves or the game starts.  In memory, on the pair's fake clock."""

from __future__ import annotations

from pair import Pair, SessionClient

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules.board import Colour
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason

QUIET = HostOptions(heartbeat=1000.0, dead_after=5000.0)


def _full(seats: int = 3, people: int = 3) -> tuple[Pair, list[SessionClient]]:
    """ann (the owner), bob and cat (``people`` of them) sit at red, blue and yellow."""
    table = Table(TableConfig(seats=seats, seed=5))
    owner, token = table.join(None, "ann")
    table.owner = owner.pid
    pair = Pair(table, QUIET)
    clients = [pair.join("ann", token=token)[1]]
    clients += [pair.join(name)[1] for name in ("bob", "cat")[: people - 1]]
    return pair, clients


def _colours(client: SessionClient) -> dict[str, int | None]:
    return {p.name: None if p.colour is None else int(p.colour)
            for p in client.last(m.Lobby).players}


def _swaps(client: SessionClient) -> tuple[tuple[int, int], ...] | None:
    return client.last(m.Lobby).swaps


def _error(client: SessionClient) -> ErrorReason:
    return client.last(m.Error).reason


def test_an_accepted_ask_swaps_both_colours_and_everyone_sees_it() -> None:
    pair, (ann, bob, cat) = _full()
    assert bob.pid is not None and cat.pid is not None
    bob.send(m.ChooseColour(colour=Colour.YELLOW))  # the table is full: yellow is cat's
    pair.pump()
    assert _error(bob) is ErrorReason.COLOUR_TAKEN
    bob.send(m.AskSwap(pid=cat.pid))
    pair.pump()
    assert _swaps(ann) == _swaps(cat) == ((bob.pid, cat.pid),)
    assert _colours(ann) == {"ann": 0, "bob": 1, "cat": 2}  # nothing changed yet
    cat.send(m.AnswerSwap(pid=bob.pid, accept=True))
    pair.pump()
    for client in (ann, bob, cat):
        assert _colours(client) == {"ann": 0, "bob": 2, "cat": 1}
        assert _swaps(client) == ()


def test_a_declined_ask_changes_no_colour() -> None:
    pair, (ann, bob, cat) = _full()
    assert bob.pid is not None
    bob.send(m.AskSwap(pid=ann.pid))
    pair.pump()
    ann.send(m.AnswerSwap(pid=bob.pid, accept=False))
    pair.pump()
    assert _colours(cat) == {"ann": 0, "bob": 1, "cat": 2}
    assert _swaps(cat) == ()


def test_nobody_answers_or_swaps_on_anothers_behalf() -> None:
    pair, (ann, bob, cat) = _full()
    assert bob.pid is not None and cat.pid is not None
    bob.send(m.AskSwap(pid=cat.pid))
    pair.pump()
    for wrong in (ann, bob):  # only cat was asked: bob cannot accept his own ask
        wrong.take()
        wrong.send(m.AnswerSwap(pid=bob.pid, accept=True))
        pair.pump()
        assert _error(wrong) is ErrorReason.UNEXPECTED
    ann.send(m.AnswerSwap(pid=cat.pid, accept=True))  # cat asked nobody
    pair.pump()
    assert _error(ann) is ErrorReason.UNEXPECTED
    assert _colours(cat) == {"ann": 0, "bob": 1, "cat": 2}
    assert _swaps(cat) == ((bob.pid, cat.pid),)


def test_each_player_takes_part_in_one_ask_at_a_time() -> None:
    pair, (ann, bob, cat) = _full()
    assert ann.pid is not None and bob.pid is not None and cat.pid is not None
    bob.send(m.AskSwap(pid=cat.pid))
    pair.pump()
    ann.send(m.AskSwap(pid=cat.pid))  # cat is being asked already
    pair.pump()
    assert _error(ann) is ErrorReason.UNEXPECTED
    cat.send(m.AskSwap(pid=ann.pid))  # cat must answer bob first
    pair.pump()
    assert _error(cat) is ErrorReason.UNEXPECTED
    bob.send(m.AskSwap(pid=ann.pid))  # bob's new ask replaces his own
    pair.pump()
    assert _swaps(cat) == ((bob.pid, ann.pid),)
    bob.send(m.AskSwap(pid=None))  # and taken back
    pair.pump()
    assert _swaps(cat) == ()
    bob.send(m.AskSwap(pid=bob.pid))
    pair.pump()
    assert _error(bob) is ErrorReason.UNEXPECTED


def test_an_ask_goes_when_either_player_leaves_or_changes_colour() -> None:
    pair, (ann, bob, cat) = _full(seats=4)
    assert bob.pid is not None and cat.pid is not None
    bob.send(m.AskSwap(pid=cat.pid))
    pair.pump()
    bob.send(m.ChooseColour(colour=Colour.GREEN))  # a free colour after all
    pair.pump()
    assert _swaps(ann) == ()
    bob.send(m.AskSwap(pid=cat.pid))
    pair.pump()
    assert _swaps(ann) == ((bob.pid, cat.pid),)
    cat.session.close()
    pair.pump()
    assert _swaps(ann) == ()
    assert "cat" not in _colours(ann)


def test_the_start_of_the_game_drops_the_ask() -> None:
    pair, (ann, bob, cat) = _full()
    assert bob.pid is not None and cat.pid is not None
    bob.send(m.AskSwap(pid=cat.pid))
    pair.pump()
    ann.send(m.Start())
    pair.pump()
    assert pair.table.swaps == {}
    assert _swaps(ann) == ()  # (the lobby told at the start)
    assert _colours(ann)["bob"] == 1


def test_a_host_bot_accepts_at_once() -> None:
    pair, (ann, bob) = _full(people=2)
    ann.send(m.AddBot(colour=None, level=None))  # yellow
    pair.pump()
    bot = next(p for p in ann.last(m.Lobby).players if p.bot)
    assert bob.pid is not None
    bob.send(m.AskSwap(pid=bot.pid))
    pair.pump()
    assert _colours(ann)["bob"] == 2
    assert _swaps(ann) == ()


def test_a_player_on_an_older_version_cannot_be_asked() -> None:
    table = Table(TableConfig(seats=2, seed=5))
    pair = Pair(table, QUIET)
    _, ann = pair.join("ann")
    _, old = pair.join("old", versions=(1, 2, 3, 4, 5))
    assert old.pid is not None and old.session.version == 5
    ann.send(m.AskSwap(pid=old.pid))
    pair.pump()
    assert _error(ann) is ErrorReason.UNEXPECTED
    assert old.last(m.Lobby).swaps is None  # an older connection is never told asks
