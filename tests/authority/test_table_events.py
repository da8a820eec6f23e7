"""Table events the journal keeps (and so the game record): a bot covering an away
person's seat (once, when it first moves for them, with its strength), the person
taking the seat back, each bot's strength as the table set it, and when the game
ended.  In memory (``pair``)."""

from __future__ import annotations

from pair import EPOCH, Pair

from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.records import check, from_journal
from sorry_lan.records.build import iso, seat_entry


def test_a_bot_covering_an_away_seat_and_its_return_are_in_the_record() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=21, grace=5.0,
                              bot_level="random"))  # fmt: skip
    pair = Pair(table)
    ann_cid, ann = pair.join("ann")
    bob = pair.join("bob")[1]
    pair.play_first_moves([ann, bob], rounds=4)
    pair.lose(ann_cid)
    for _ in range(6):  # bob plays, a bot plays for ann once her grace is over
        pair.advance(6.0)
        pair.play_first_moves([bob], rounds=1)
    kinds = [r["k"] for r in pair.journal]
    assert kinds.count("cover") == 1  # once, however many moves the bot makes
    cover = next(r for r in pair.journal if r["k"] == "cover")
    assert cover == {"k": "cover", "colour": 0, "level": "random"}
    after = kinds.index("cover")
    assert kinds[after + 1] == "move"  # the bot's first move for her follows
    _again, back = pair.join("ann", token=ann.token)
    assert pair.journal[-1] == {"k": "back", "colour": 0, "name": "ann"}
    pair.play_first_moves([back, bob])
    game = table.game
    assert game is not None and game.over
    record = from_journal(pair.journal)
    events = [t for t in record["turns"] if t["type"] in ("cover", "back")]
    assert [(t["type"], t["colour"]) for t in events] == [("cover", "red"), ("back", "red")]
    assert events[0]["strength"] == "random" and events[1]["name"] == "ann"
    assert check(record).game.winner == game.winner
    assert record["ended"] == iso(EPOCH + pair.now)  # the pair's clock at the last move
    assert pair.journal[-1]["t"] == int(EPOCH + pair.now) and pair.now > 30
    assert replay(pair.journal) is not None  # a journal with covers still resumes


def test_a_return_before_any_bot_move_is_no_event() -> None:
    pair = Pair(Table(TableConfig(seats=2, auto_start=True, seed=2)))
    ann_cid, ann = pair.join("ann")
    pair.join("bob")
    pair.lose(ann_cid)
    pair.join("ann", token=ann.token)
    assert not [r for r in pair.journal if r["k"] in ("cover", "back")]


def test_a_bots_strength_comes_from_the_table_not_its_name() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=2))
    bot = table.add_bot(None, level="expert")
    bot.name = "Robo"  # a name that says nothing of its strength
    pair = Pair(table)
    pair.join("ann")
    head = pair.journal[0]
    assert head["levels"] == {str(bot.colour): "expert"}
    seats = from_journal(pair.journal)["seats"]
    assert [s["strength"] for s in seats if s["player"] == "bot"] == ["expert"]
    restored = replay(pair.journal)
    assert restored is not None and restored.levels == {bot.colour: "expert"}
    again = Table.restore(TableConfig(seats=2), restored, 0.0, None)
    assert [p.level for p in again.players.values() if p.bot] == ["expert"]
    # a journal from before levels: the strength its name shows, as version 1 did
    assert seat_entry(1, "greedy bot 2", True)["strength"] == "greedy"


def test_the_text_form_words_a_cover_and_a_return() -> None:
    from pathlib import Path

    from sorry_lan.i18n.recordwords import record_lines as text_lines
    from sorry_lan.records import load

    path = Path(__file__).resolve().parents[2] / "protocol" / "records" / "team-4.json"
    lines = text_lines(load(path.read_bytes()))
    assert "38. Red: a bot (random) plays for the player who is away" in lines
    assert "50. Red: Ann is back in the seat" in lines
