"""What a page may send, read into choices (sans I/O), and where the board's places
are drawn on a phone."""

from __future__ import annotations

import json

import pytest

from sorry_lan.rules.board import HOME, S1, START, TRACK_LEN
from sorry_lan.web import choices as c
from sorry_lan.web.board import SIDE, Cell, cells, place_cell, track_cell


def test_each_choice_is_read() -> None:
    token = "ab" * 16
    assert c.read_choice(json.dumps({"t": "join", "name": " Ann ", "token": token,
                                     "lang": "el-GR"})) == c.Join("Ann", bytes.fromhex(token), "el")
    assert c.read_choice('{"t": "join", "name": "Ann", "lang": "xx"}') == c.Join("Ann")
    assert c.read_choice('{"t": "ready", "ready": false}') == c.Ready(False)
    assert c.read_choice('{"t": "colour", "colour": 3}') == c.Colour(3)
    assert c.read_choice('{"t": "move", "offer": 12, "index": 0}') == c.Move(12, 0)
    assert c.read_choice('{"t": "chat", "text": "hi"}') == c.Chat("hi")
    assert c.read_choice('{"t": "rematch"}') == c.Rematch()
    assert c.read_choice('{"t": "lang", "lang": "cy"}') == c.Language("cy")
    assert c.read_choice('{"t": "trade", "pid": 2}') == c.Trade(2)
    assert c.read_choice('{"t": "trade", "pid": null}') == c.Trade(None)
    assert c.read_choice('{"t": "answer", "accept": true}') == c.Answer(True)
    assert c.read_choice('{"t": "more_time"}') == c.MoreTime()


@pytest.mark.parametrize(("frame", "reason"), [
    ("", "not-json"),
    ('"join"', "not-object"),
    ('{"t": "play"}', "unknown"),
    ('{"name": "Ann"}', "unknown"),
    ('{"t": "join", "name": ""}', "field"),
    ('{"t": "join", "name": "' + "n" * 25 + '"}', "field"),
    ('{"t": "join", "name": "a\\u0007b"}', "field"),
    ('{"t": "join", "name": "Ann", "token": "zz"}', "field"),
    ('{"t": "join", "name": "Ann", "token": "' + "g" * 32 + '"}', "field"),
    ('{"t": "ready", "ready": "yes"}', "field"),
    ('{"t": "colour", "colour": 4}', "field"),
    ('{"t": "colour", "colour": true}', "field"),
    ('{"t": "move", "offer": 1, "index": -1}', "field"),
    ('{"t": "move", "offer": 1.5, "index": 0}', "field"),
    ('{"t": "lang", "lang": "klingon"}', "field"),
    ('{"t": "trade", "pid": 256}', "field"),
    ('{"t": "trade", "pid": "2"}', "field"),
    ('{"t": "answer", "accept": 1}', "field"),
    ('{"t": "chat", "text": "' + "x" * 1100 + '"}', "too-long"),
])
def test_a_frame_that_is_no_choice_is_refused_with_its_reason(frame: str, reason: str) -> None:
    with pytest.raises(c.BadChoice) as refused:
        c.read_choice(frame)
    assert refused.value.reason == reason and str(refused.value)


def test_every_place_has_a_cell_of_its_own_on_the_grid() -> None:
    drawn = cells(())
    spots = [(cell.x, cell.y) for cell in drawn]
    assert len(drawn) == TRACK_LEN + 4 * 7 == len(set(spots))
    assert all(0 <= x < SIDE and 0 <= y < SIDE for x, y in spots)
    assert [track_cell(n) for n in (0, 15, 30, 45)] == [(0, 0), (15, 0), (15, 15), (0, 15)]
    edge = {(x, y) for x, y in spots if x in (0, SIDE - 1) or y in (0, SIDE - 1)}
    assert edge == {track_cell(n) for n in range(TRACK_LEN)}  # the track is the edge
    assert place_cell(0, S1) == (2, 1) and place_cell(0, HOME) == (2, 6)


def test_the_pawns_are_on_their_cells_by_token() -> None:
    pawns = [START] * 16
    pawns[0], pawns[5] = 7, HOME
    drawn = {(cell.x, cell.y): cell for cell in cells(pawns)}
    assert drawn[track_cell(7)].pawns == ("R1",)
    assert drawn[place_cell(1, HOME)].pawns == ("B2",)
    assert drawn[place_cell(0, START)].pawns == ("R2", "R3", "R4")
    assert sum(len(cell.pawns) for cell in drawn.values()) == 16


def test_start_and_home_are_boxes_for_four_pawns_that_cover_nothing_else() -> None:
    drawn = cells(())
    covered: dict[tuple[int, int], Cell] = {}
    for cell in drawn:
        left, top, w, h = cell.area
        assert 0 <= left <= SIDE - w and 0 <= top <= SIDE - h
        assert left <= cell.x < left + w and top <= cell.y < top + h  # its own cell in it
        assert (w, h) == ((2, 2) if cell.kind in ("start", "home") else (1, 1))
        for spot in ((x, y) for x in range(left, left + w) for y in range(top, top + h)):
            assert spot not in covered, (cell, covered[spot])
            covered[spot] = cell
