"""Parts to build a screen with outside a running application (an 80x40 terminal)."""

from __future__ import annotations

from sorry_lan.tui.screens.parts import Clicks, Parts
from sorry_lan.tui.state import UiState


def parts_for(state: UiState, ascii: bool = False) -> Parts:
    clicks = Clicks(found=lambda i: None, move=lambda i: None, back=lambda: None)
    return Parts(state, clicks, ascii=ascii, letters=False)
