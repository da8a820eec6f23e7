"""prompt_toolkit's renderer made to count cells as :mod:`sorry_lan.tui.cells` does.

The renderer measures text with ``prompt_toolkit.utils.get_cwidth``, which gives a
spacing combining mark (a Devanagari vowel sign) no cell; :mod:`~sorry_lan.tui.cells`
and the terminals give it one.  :func:`align_renderer` (run when this module is
imported: the application and every screen import it, before any screen is drawn) fills
the renderer's own width cache for those marks, so the renderer, the layouts computed
with :func:`sorry_lan.tui.cells.width` and the terminal agree.  It draws nothing.
"""

from __future__ import annotations

from prompt_toolkit import utils as pt_utils

from .cells import spacing_marks


def align_renderer() -> None:
    """Make prompt_toolkit give each spacing mark one cell, as the C library does.

    It fills prompt_toolkit's own width cache (the one ``get_cwidth`` reads) for those
    code points; text already measured is forgotten, to be measured again.  The cache is
    private to prompt_toolkit: should a release drop it, this does nothing (marks then
    count as prompt_toolkit says) and the test that the renderer counts as
    :mod:`~sorry_lan.tui.cells` does fails, rather than every screen failing to start."""
    cache = getattr(pt_utils, "_CHAR_SIZES_CACHE", None)
    if not isinstance(cache, dict):
        return
    for mark in spacing_marks():
        cache[mark] = 1
    for text in [t for t in cache if len(t) > 1]:  # strings measured before: again
        del cache[text]


align_renderer()
