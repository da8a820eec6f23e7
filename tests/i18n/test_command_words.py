"""What the commands print on a terminal, in the player's language.

Each command runs through its real code (``cli.main`` with captured output, or a real
process on 127.0.0.1 with ``--no-mdns``) with ``--lang`` Greek, Thai or the pseudo-locale,
and every human line is searched for English words.  Program and option names, commands
in backticks, quoted command words, paths and players' names stay as they are; JSON for
scripts is the same in every language.
"""

from __future__ import annotations

import errno
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from test_saved import flip, save_game

from sorry_lan.cli import main
from sorry_lan.i18n import PSEUDO, use_language
from sorry_lan.tui.line_help import COMMAND_WORDS

ROOT = Path(__file__).resolve().parents[2]
LANGS = ["el", "th", PSEUDO]
# Words that read the same in every language: acronyms, "bot" (Greek and Welsh say so)
# and the pseudo-locale's code (the lobby names each player's language by its code).
ALLOWED = {"LAN", "IPv6", "PIN", "bot", PSEUDO}
WORD = re.compile(r"[A-Za-z]{3,}")
_LITERAL = [
    re.compile(r"`[^`]*`"),  # a command to type
    re.compile(r"'[^'\s]*'"),  # a quoted command word or name
    re.compile(r"sorry-lan(?: [a-z]+)?"),  # the program and its subcommand
    re.compile(r"--[a-z-]+(?: [A-Z][A-Z:]*)?"),  # an option and its metavar
    re.compile(r"\S*/\S*"),  # a path or an address with a slash
    re.compile(r"\$[A-Z_]+"),  # an environment variable
]


def english(text: str, names: Iterable[str] = ()) -> list[str]:
    """The English words in ``text`` outside literals, names and :data:`ALLOWED`."""
    for pattern in _LITERAL:
        text = pattern.sub(" ", text)
    return [w for w in WORD.findall(text) if w not in ALLOWED | set(names)]


def test_the_detector_finds_english_and_spares_literals() -> None:
    assert english("listening on 127.0.0.1:5") == ["listening"]
    assert english("ακούει στο 127.0.0.1:5 `sorry-lan host --resume ID` --address HOST:PORT") == []
    assert english("φιλοξενείς: γράψε 'start' ή 'quit'") == []
    assert english("Ann (Κόκκινο) μπήκε", {"Ann"}) == []


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with use_language("en"):  # main() sets the process's language: put it back after
        status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _journals(tmp_path: Path) -> Path:
    d = tmp_path / "journals"
    d.mkdir(mode=0o700, exist_ok=True)
    save_game(d, "20260101-a", end=True)
    save_game(d, "20260102-b", host="ann", moves=9)
    save_game(d, "20260103-c", host="mallory", moves=1)
    flip(save_game(d, "20260104-d"), line=2)
    return d


def _problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What is wrong with each damaged journal: the journal reader's diagnosis, which
    stays in English (as in ``--json``); the words around it are translated."""
    _, out, _ = _run(["games", "--json", "--data-dir", str(tmp_path)], capsys)
    return [g["problem"] for g in json.loads(out) if g["problem"]]


def _without(text: str, parts: list[str]) -> str:
    """``text`` without ``parts``, wherever its lines break (``host --resume`` fits its
    words to 80 columns, so a part may span two lines)."""
    for part in parts:
        text = re.sub(r"\s+".join(map(re.escape, part.split())), " ", text)
    return text


@pytest.mark.parametrize("lang", LANGS)
def test_games_lists_in_the_players_language_and_json_stays_the_same(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _journals(tmp_path)
    problems = _problems(tmp_path, capsys)
    base = ["games", "--data-dir", str(tmp_path)]
    status, english_out, _ = _run(base, capsys)
    assert status == 0 and english_out.split()[:2] == ["STARTED", "HOST"]
    status, out, err = _run(["--lang", lang, *base], capsys)
    assert status == 0 and err == ""
    lines = _without(out, problems).splitlines()
    assert len(lines) == 6 and out.splitlines() != english_out.splitlines()
    names = {"ann", "bob", "mallory"}
    assert [(line, english(line, names)) for line in lines if english(line, names)] == []
    _, json_en, _ = _run([*base, "--json"], capsys)
    _, json_lang, _ = _run(["--lang", lang, *base, "--json"], capsys)
    assert json.loads(json_lang) == json.loads(json_en) and json_lang == json_en


@pytest.mark.parametrize("lang", LANGS)
def test_games_with_none_saved(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(["--lang", lang, "games", "--data-dir", str(tmp_path)], capsys)
    assert status == 0 and english(out) == [] and str(tmp_path) in out


@pytest.mark.parametrize("lang", LANGS)
def test_resume_questions_and_refusals_in_the_players_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _journals(tmp_path)
    problems = _problems(tmp_path, capsys)
    resume = ["--lang", lang, "host", "--headless", "--no-mdns", "--data-dir", str(tmp_path)]
    names = {"ann", "bob", "mallory", "zed"}
    status, _, err = _run([*resume, "--resume", "--name", "zed"], capsys)
    err = _without(err, problems)
    assert status == 2 and "20260102-b" in err and "20260103-c" in err
    assert [(ln, english(ln, names)) for ln in err.splitlines() if english(ln, names)] == []
    for wanted, code in (("20260101-a", 1), ("nope", 1), ("20260104-d", 2), ("2026", 1)):
        status, _, err = _run([*resume, "--resume", wanted], capsys)
        assert status == code and err.startswith("sorry-lan host:"), err
        assert english(_without(err, problems), names) == [], err
    status, _, err = _run([*resume, "--salvage"], capsys)
    assert status == 1 and english(err) == [], err


@pytest.mark.parametrize("lang", LANGS)
def test_join_errors_in_the_players_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = ["--lang", lang, "join", "--text", "--address", f"127.0.0.1:{port}"]
    status, _, err = _run([*argv, "--data-dir", str(tmp_path)], capsys)
    assert status == 1 and err.startswith("sorry-lan join: ")
    assert english(err) == [], err


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.parametrize("lang", ["el", PSEUDO])
def test_a_headless_table_and_a_bot_report_in_the_players_language(
    lang: str, tmp_path: Path
) -> None:
    env = _env()
    with subprocess.Popen(
        [sys.executable, "-m", "sorry_lan", "--lang", lang, "host", "--headless",
         "--players", "2", "--bots", "1", "--no-mdns", "--bind", "127.0.0.1", "--port", "0",
         "--data-dir", str(tmp_path), "--name", "Table"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    ) as host:  # fmt: skip
        try:
            assert host.stdout is not None and host.stderr is not None
            first = host.stdout.readline()
            found = re.search(r"127\.0\.0\.1:(\d+)", first)
            assert found is not None, first
            port = found.group(1)
            bot = subprocess.run(
                [sys.executable, "-m", "sorry_lan", "bot", "--lang", lang, "--address",
                 f"127.0.0.1:{port}", "--name", "Robo", "--strength", "random",
                 "--data-dir", str(tmp_path)],
                capture_output=True, text=True, env=env, timeout=50,
            )  # fmt: skip
            out = host.stdout.read()
            err = host.stderr.read()
            host.wait(30)
        finally:
            if host.poll() is None:
                host.kill()
                host.wait(5)
    assert bot.returncode == 0, bot.stderr
    assert host.returncode == 0, err
    names = {"Table", "Robo", "greedy"}
    lines = (first + out).splitlines()
    assert len(lines) >= 5 and not first.startswith("listening")
    bot_lines = bot.stderr.splitlines() + bot.stdout.splitlines()
    assert len(bot_lines) >= 3
    leaks = [(line, english(line, names)) for line in lines + bot_lines]
    assert [leak for leak in leaks if leak[1]] == []


@pytest.mark.parametrize("lang", ["th", PSEUDO])
def test_the_hosts_line_interface_says_what_to_type_in_the_players_language(
    lang: str, tmp_path: Path
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sorry_lan", "--lang", lang, "host", "--text", "--no-mdns",
         "--bind", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path), "--name", "Ann"],
        input="quit\n", capture_output=True, text=True, env=_env(), timeout=50,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    words = (" bot ", " start ", " help ", " quit ")
    prompt = [ln for ln in lines if "Ann" in ln and all(w in ln for w in words)]
    assert len(prompt) == 1, lines
    typed = {"Ann", *COMMAND_WORDS}  # the line mode's commands are typed in English
    leaks = [(line, english(line, typed)) for line in lines + proc.stderr.splitlines()]
    assert [leak for leak in leaks if leak[1]] == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_busy_port_and_an_unwritable_data_dir_in_the_players_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        argv = ["--lang", lang, "host", "--headless", "--no-mdns", "--bind", "127.0.0.1"]
        status, _, err = _run([*argv, "--port", str(port), "--data-dir", str(tmp_path)], capsys)
    assert status == 1 and str(port) in err and english(err) == [], err
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")
    status, _, err = _run([*argv, "--port", "0", "--data-dir", str(not_a_dir)], capsys)
    why = os.strerror(errno.ENOTDIR)  # the system's words for it stay as they are
    assert status == 1 and why in err, err
    assert english(err.replace(why, " ")) == [], err


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "argv",
    [
        ["host", "--port", "x"],
        ["host", "--port", "70000"],
        ["host", "--bots", "many"],
        ["host", "--bots", "9"],
        ["host", "--seed", "-1"],
        ["host", "--bot-budget-ms", "0"],
        ["host", "--grace", "x"],
        ["bot", "--games", "0"],
        ["bot", "--timeout", "x"],
    ],
)
def test_a_bad_option_value_is_told_in_the_players_language(
    lang: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop, use_language("en"):
        main(["--lang", lang, *argv])
    assert stop.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]  # usage lines come first
    assert english(last) == [], last
