"""Playing on alone (issue 31): the two questions a person at a laptop may be asked.

- A ``join`` laptop that nobody answers once the host is lost (the heir's
  ``AskAlone``): :class:`AloneQuestion` is the heir's ``ask_alone`` callback; it waits
  for the person's answer, which the board's box (:mod:`.screens.alone`) or the line
  mode (:class:`LineAlone`) gives.  A no, or no answer, keeps looking for the table.
- A host cut off from most of the table's laptops, its game paused: the person there
  may choose to play on alone (``PlayAlone``, from the host command), after a
  question that says what it means.

Either way it is a game of its own: the others' game goes on without it.  This module
holds the words and the line mode's part; it decides nothing (the election and the
host core do), takes nothing over itself and prints nothing (:mod:`.lines` does).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from sorry_lan.i18n import _, is_yes

from .sentences import sentence
from .state import PlayAlone

NO_WORDS = ("", "n", "no")  # a no, in the line mode (an empty line too)
ALONE_WORD = "alone"  # the line mode's command, the same in every language


class AloneQuestion:
    """The heir's ``ask_alone``: asks the person whether to start a game of their own
    here, and waits for :meth:`answer`; ``on_change`` runs when a question is asked
    and when it goes (answered, or withdrawn: the table was found, or the heir gave up)."""

    def __init__(self) -> None:
        self._answer: asyncio.Future[bool] | None = None
        self.on_change: list[Callable[[], None]] = []
        self._news = asyncio.Event()

    @property
    def asking(self) -> bool:
        """Whether a question waits for its answer now."""
        return self._answer is not None and not self._answer.done()

    async def __call__(self, epoch: int) -> bool:
        self._answer = asyncio.get_running_loop().create_future()
        self._changed()
        try:
            return await self._answer
        finally:
            self._answer = None
            self._changed()

    def answer(self, yes: bool) -> None:
        """The person's answer (nothing when no question waits)."""
        if self.asking:
            assert self._answer is not None
            self._answer.set_result(yes)

    async def news(self) -> None:
        """Return once a question is asked or goes (for a loop that waits on it)."""
        await self._news.wait()
        self._news.clear()

    def _changed(self) -> None:
        self._news.set()
        for listener in self.on_change:
            listener()


def join_question() -> str:
    """What a ``join`` laptop that nobody answers asks its person."""
    return _(
        "No other laptop answers. The others may be playing on without you. "
        "Start a game of your own here, with bots in their seats?"
    )


def host_question() -> str:
    """What a cut-off host asks its person before it plays on alone."""
    return _(
        "Play on alone, with bots in the others' seats? It is a game of your own: "
        "the others' game goes on without you."
    )


def cut_off_words() -> str:
    """Why a host's game waits, said to its own person."""
    return _("Your laptop is cut off from the other laptops: the game is paused.")


def not_paused_words() -> str:
    return _("your game is not paused")


def _did_not_work() -> str:
    return sentence(_("Your command did not work: {why}; type help to hear every command"),
                    why=not_paused_words())


def _type_yes_or_no() -> str:
    return _("Type {yes} or {no}.").format(yes="yes", no="no")


class LineAlone:
    """The line mode's part: the ``join`` laptop's question (``question``), and the
    host's ``alone`` command while it is cut off (``play_alone``)."""

    def __init__(self, question: AloneQuestion | None, play_alone: PlayAlone | None) -> None:
        self.question = question
        self.play_alone = play_alone
        self.asking: str | None = None  # "join" or "host": the next line answers it
        self.told = False  # the host's person was told of this pause

    def news(self) -> list[str]:
        """What to say now (after an event, or the question's news): the question
        when it is asked, why the host's game waits when it begins to."""
        out: list[str] = []
        question = self.question
        if question is not None:
            if question.asking and self.asking != "join":
                self.asking = "join"
                out.append(join_question() + " " + _type_yes_or_no())
            elif not question.asking and self.asking == "join":
                self.asking = None  # withdrawn: the link news says what happened
        play = self.play_alone
        if play is not None:
            if play.possible() and not self.told:
                self.told = True
                how = _("Type {alone} to play on alone.").format(alone=ALONE_WORD)
                out.append(cut_off_words() + " " + how)
            elif not play.possible():
                self.told = False
                if self.asking == "host":
                    self.asking = None
        return out

    def command(self, line: str) -> list[str] | None:
        """The ``alone`` command (None: the line is another command)."""
        if line.strip().lower() != ALONE_WORD or self.play_alone is None:
            return None
        if not self.play_alone.possible():
            return [_did_not_work()]
        self.asking = "host"
        return [host_question() + " " + _type_yes_or_no()]

    def answer(self, line: str) -> list[str]:
        """The answer to the question asked: what to say back."""
        asking, yes = self.asking, is_yes(line)
        if not yes and line.strip().lower() not in NO_WORDS:
            again = join_question() if asking == "join" else host_question()
            return [again + " " + _type_yes_or_no()]
        self.asking = None
        if asking == "join":
            if self.question is not None:
                self.question.answer(yes)
            if yes:
                return [_("You start a game of your own here.")]
            return [_("You keep looking for the table.")]
        if not yes:
            return [_("Your game waits for the other laptops.")]
        if self.play_alone is not None and self.play_alone.start():
            return [_("You play on alone: a game of your own.")]
        return [_did_not_work()]

    def help_lines(self) -> list[str]:
        """The ``help`` command's line for the host's ``alone``."""
        if self.play_alone is None:
            return []
        return [_("If your game is paused because your laptop is cut off, type {alone} "
                  "to play on alone.").format(alone=ALONE_WORD)]
