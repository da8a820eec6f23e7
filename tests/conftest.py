"""Pytest set-up and checks that hold for every test in the suite.

When a Hypothesis test fails, Hypothesis's pytest plugin imports its patch writer,
which imports ``libcst`` if that is installed; on some machines that import emits a
DeprecationWarning, and with warnings as errors the failure report would become an
INTERNALERROR that hides the real failure.  Importing the writer here once, with
warnings silenced, keeps failure reports intact.  It changes nothing when tests pass.

Every test gets its own sorry-lan data directory (``$SORRY_LAN_DATA_DIR``, inherited by
the processes it starts): saved seats, journals and played-game records never land in
the user's real data directory, and one test's saved seat never shows in another's
find screen as "your seat".  A test that passes ``--data-dir`` still decides for itself.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import sys
import tempfile
import warnings
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from sorry_lan.client.model import REPLAY_MISMATCH
from sorry_lan.net.journal import DATA_DIR_ENV

sys.path.insert(0, str(Path(__file__).resolve().parent / "discovery"))
from netns import sweep_namespaces

# Without libcst the plugin skips patch writing itself, so ImportError is fine.
with warnings.catch_warnings(), contextlib.suppress(ImportError):
    warnings.simplefilter("ignore")
    importlib.import_module("hypothesis.extra._patching")


@pytest.fixture(autouse=True)
def _client_replay_never_disagrees(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Our client's own replay check (``wire.apply.check_events``) never fires in the
    suite: a test that provokes it on purpose clears ``caplog`` once it has looked."""
    yield
    fired = [r.getMessage() for r in caplog.records if str(r.msg).startswith(REPLAY_MISMATCH)]
    assert not fired, f"the client's replay check fired: {fired}"


TUI_TESTS = Path(__file__).resolve().parent / "tui"


@pytest.fixture(autouse=True)
def _default_bindings_once(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The TUI tests share one copy per process of prompt_toolkit's default key bindings.

    Every ``Application`` builds its own copy of the default bindings (Emacs, Vi, mouse:
    a few thousand objects) and of the page-navigation ones, which hold no state of
    their own (what a binding changes lives on the ``event.app`` it is given); the
    tests build hundreds of applications.  The application's own bindings
    (:mod:`sorry_lan.tui.keys`) are still built per test, and the tmux tests run the
    real program.  Other tests never import prompt_toolkit for it.
    """
    if not request.node.path.is_relative_to(TUI_TESTS):
        return
    from prompt_toolkit.application import application

    monkeypatch.setattr(application, "load_key_bindings", _bindings_cache("defaults"))
    monkeypatch.setattr(
        application, "load_page_navigation_bindings", _bindings_cache("page_navigation")
    )


@functools.cache
def _bindings_cache(which: str) -> Any:
    """prompt_toolkit's loader of the ``which`` bindings, remembering what it built."""
    if which == "defaults":
        from prompt_toolkit.key_binding.defaults import load_key_bindings

        return functools.cache(load_key_bindings)
    from prompt_toolkit.key_binding.bindings.page_navigation import (
        load_page_navigation_bindings,
    )

    return functools.cache(load_page_navigation_bindings)


@pytest.fixture(autouse=True)
def _own_language() -> Iterator[None]:
    """Give back the language a test found: ``main(["--lang", ...])`` in the test's own
    process sets it for the process, and the next test on that worker would speak it."""
    from sorry_lan import i18n

    saved = i18n._current[0]
    yield
    i18n._current[0] = saved


@pytest.fixture(autouse=True)
def _own_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Point ``$SORRY_LAN_DATA_DIR`` at a fresh directory for this test alone."""
    # (mkdtemp, not mktemp: a numbered directory reads the whole run's directory to find
    # its number, about 2.5 s of CPU a worker over the suite's 3,000 tests)
    base = tmp_path_factory.getbasetemp()
    monkeypatch.setenv(DATA_DIR_ENV, tempfile.mkdtemp(prefix="sorry-lan-data-", dir=base))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the machine has cores.  The loopback tests
    spend much of their time waiting on real timers and sockets; the extra worker
    runs other tests meanwhile (the in-memory tests alone keep every core busy)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


def pytest_sessionstart(session: pytest.Session) -> None:
    """Delete the network namespaces a killed run of the suite left (their creating
    process is gone)."""
    sweep_namespaces(mine=False)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Delete every network namespace this process created and a failed or timed-out
    test could not (each xdist worker is such a process)."""
    sweep_namespaces(mine=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run first the modules that drive the real application in a terminal: their games
    wait on real processes for a minute or more (a language's game is one xdist group),
    and a worker handed one at the end of the run would hold everyone up.  Each module
    keeps its tests together and in order; the rest keep their order."""
    modules: dict[str, int] = {}
    for item in items:
        key = item.nodeid.split("::")[0]
        waits = item.get_closest_marker("tmux") is not None
        modules[key] = min(modules.get(key, 1), 0 if waits else 1)
    items.sort(key=lambda item: modules[item.nodeid.split("::")[0]])


def _has_line(entry: Any) -> bool:
    try:
        entry.lineno  # noqa: B018
    except TypeError:
        return False
    return True


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Leave out of a failure's traceback the frames CPython 3.11 gives no line number
    (an exception such as pytest-timeout's raised between two lines of a coroutine):
    pytest's long report fails on them, and under xdist that INTERNALERROR ends the
    whole run instead of failing one test."""
    if call.excinfo is not None:
        call.excinfo.traceback = call.excinfo.traceback.filter(_has_line)
    return (yield)
