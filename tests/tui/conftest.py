"""The TUI tests' shared setup: prompt_toolkit's default key bindings built once.

Every ``Application`` builds its own copy of prompt_toolkit's default bindings (Emacs,
Vi, mouse: a few thousand objects) and its page-navigation bindings, which hold no
state of their own (what a binding changes lives on the ``event.app`` it is given).
The tests build hundreds of applications, so they share one copy per process;
the application's own bindings (:mod:`sorry_lan.tui.keys`) are still built per test.
This does not change what a binding does (the tmux tests run the real program).
"""

from __future__ import annotations

import functools

import pytest
from prompt_toolkit.application import application
from prompt_toolkit.key_binding.bindings.page_navigation import load_page_navigation_bindings
from prompt_toolkit.key_binding.defaults import load_key_bindings

_DEFAULTS = functools.cache(load_key_bindings)
_PAGES = functools.cache(load_page_navigation_bindings)


@pytest.fixture(autouse=True)
def _default_bindings_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(application, "load_key_bindings", _DEFAULTS)
    monkeypatch.setattr(application, "load_page_navigation_bindings", _PAGES)
