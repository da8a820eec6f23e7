"""Every language in a real terminal: whole games of ``sorry-lan host --lang X`` in tmux.

One game per language (``--seed 5``, three bots, our seat playing by keys) is
captured at 80x24: the lobby, the board mid-game, a split 7's second step, the ``?``
help and game over; each capture is judged by :mod:`screen_checks` (width as a
terminal counts it, no English word left, the title bar, footer and panel border in
the English screen's columns).  A four-player table where each player reads another
language checks that each screen is in its player's language and each lobby names
every player's language.  Skipped when tmux is not installed.

Each language's screens are one xdist group, so the games spread over the workers;
every language is set against the English game, played once per run and shared
between workers through a file (:func:`game`).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from screen_checks import (
    cut_with_room,
    english_left,
    layout_faults,
    too_wide,
    without_names,
    words_of,
)
from tmux_games import (
    BOTS,
    HOST,
    Played,
    bots_shown,
    free_port,
    host_session,
    join_session,
    play_captured,
    settled,
    wait,
)
from tmux_harness import private_tmux

from sorry_lan.i18n import LANGUAGES, use_language, words

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

SCREENS = ("lobby", "game", "split", "help", "over")
NAMES = (HOST, *BOTS, "watcher")
_games: dict[str, Played] = {}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Played]]:
    """The captured games, played on first use (one per language) and shared."""
    yield _games
    _games.clear()


def game(games: dict[str, Played], lang: str, tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The game in ``lang``, played on first use in this process; the English one on
    first use in the run, whichever worker that is (the others read its file)."""
    if lang not in games:
        if lang == "en":
            games[lang] = _shared_english(tmp_path_factory)
        else:
            games[lang] = _play(lang, tmp_path_factory)
    return games[lang]


def _play(lang: str, tmp_path_factory: pytest.TempPathFactory) -> Played:
    with private_tmux("host") as tmux:
        return play_captured(tmux, lang, tmp_path_factory.mktemp(f"game-{lang}"))


def _shared_english(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The English game, played by the first worker to ask, under a file lock, and
    read from its file by the rest (the run's directory that all workers share)."""
    import fcntl  # (POSIX only, as tmux)

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # (each worker's own directory is in the run's)
    kept = base / "terminal-languages-en.json"
    with open(base / "terminal-languages-en.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            saved = json.loads(kept.read_text(encoding="utf-8"))
            return Played(saved["lang"], saved["screens"], saved["turns"])
        played = _play("en", tmp_path_factory)
        saved = {"lang": played.lang, "screens": played.screens, "turns": played.turns}
        kept.write_text(json.dumps(saved), encoding="utf-8")
        return played


def english_words(games: dict[str, Played], tmp: pytest.TempPathFactory) -> set[str]:
    """The words of the English game's screens, player names left out."""
    english = game(games, "en", tmp)
    return {w for text in english.screens.values() for w in words_of(without_names(text, NAMES))}


@pytest.mark.timeout(400)
@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize(
    "lang",
    # one group per language: its game is played once, on the worker that reads it
    [pytest.param(lang, marks=pytest.mark.xdist_group(f"terminal_language_{lang}"))
     for lang in LANGUAGES],
)
def test_each_screen_in_each_language(
    games: dict[str, Played], tmp_path_factory: pytest.TempPathFactory, lang: str, screen: str
) -> None:
    played = game(games, lang, tmp_path_factory)
    english = game(games, "en", tmp_path_factory)
    assert screen in played.screens, f"{lang}: no {screen} screen in {played.turns} turns"
    text = played.screens[screen]
    problems: list[str] = [f"wider than 80 columns: {line!r}" for line in too_wide(text)]
    if lang != "en":
        # The bots' names are read too: the table's names for them are worded in lang.
        names = (HOST, "watcher", *bots_shown(lang))
        left = english_left(text, lang, english_words(games, tmp_path_factory), names)
        problems += [f"English {word!r} in: {lines[0]!r}" for word, lines in left.items()]
    problems += cut_with_room(text)
    problems += layout_faults(text, english.screens[screen])
    assert not problems, f"{lang} {screen}:\n" + "\n".join(problems) + "\n" + text


TABLE = {"el": HOST, "hi": "Bea", "th": "Cai", "cy": "Dee"}  # the host first


@pytest.mark.timeout(400)
def test_a_table_of_four_languages(
    games: dict[str, Played], tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    """Ann hosts in Greek; Bea, Cai and Dee join in Hindi, Thai and Welsh.  Each
    lobby names every player's language; each screen is in its player's language
    (the English game's words count as English too, whichever test played it)."""
    english = english_words(games, tmp_path_factory)
    port = free_port()
    sessions = {lang: f"p-{lang}" for lang in TABLE}
    with private_tmux(sessions["el"]) as tmux:
        host_session(tmux, sessions["el"], "el", port, tmp_path / "el", bots=0)
        wait(tmux, sessions["el"], lambda s: f"127.0.0.1:{port}" in s, "the host's lobby")
        for lang, name in list(TABLE.items())[1:]:
            join_session(tmux, sessions[lang], lang, port, name, tmp_path / lang)
        everyone = [*TABLE.values(), *(LANGUAGES[lang] for lang in TABLE)]
        lobbies = {}
        for lang, session in sessions.items():
            wait(tmux, session, lambda s: all(x in s for x in everyone),
                 "every player and every player's language in the lobby")  # fmt: skip
            lobbies[lang] = settled(tmux, session)
        tmux.keys("s")  # nobody else said ready: the first s says who is not
        settled(tmux, sessions["el"])
        tmux.keys("s")  # the host starts the game
        boards = {}
        for lang, session in sessions.items():
            with use_language(lang):
                red = words.colour_name(0)
            wait(tmux, session, partial(_shows, f"{red} ({HOST})"), f"the game in {lang}")
            boards[lang] = settled(tmux, session)
    problems = []
    for lang in TABLE:
        for what, text in (("lobby", lobbies[lang]), ("game", boards[lang])):
            problems += [f"{lang} {what}: wider than 80: {line!r}" for line in too_wide(text)]
            left = english_left(text, lang, english, TABLE.values())
            problems += [f"{lang} {what}: English {w!r} in {ls[0]!r}" for w, ls in left.items()]
        with use_language(lang):
            variant = words.variant_title("standard")
        if variant not in lobbies[lang]:
            problems.append(f"{lang} lobby: the variant is not named in {lang} ({variant!r})")
    assert not problems, "\n".join(problems) + "\n" + "\n\n".join(
        f"{lang}:\n{lobbies[lang]}\n{boards[lang]}" for lang in TABLE
    )


def _shows(text: str, screen: str) -> bool:
    return text in screen
