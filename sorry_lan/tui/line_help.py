"""The line mode's help: the words its commands are typed with, what ``help`` says in
each phase of a table, and the prompt that ends an offer.

Pure and worded only: it parses no command (:mod:`sorry_lan.tui.lines` does) and keeps
no state.
"""

from __future__ import annotations

from sorry_lan.i18n import _, pgettext

#: The words the line mode's commands are typed with, the same in every language.
COMMAND_WORDS = (
    "moves",
    "time",
    "board",
    "where",
    "table",
    "who",
    "say",
    "chat",
    "colour",
    "color",
    "ready",
    "swap",
    "accept",
    "decline",
    "start",
    "bot",
    "variant",
    "rematch",
    "help",
    "keys",
    "quit",
    "exit",
    "bye",
    "alone",
    "yes",
)


#: The phases of a table a help fits: the lobby, a game under way, a game over.
PHASES = ("lobby", "game", "over")


def help_lines(phase: str | None = None) -> list[str]:
    """The commands of the line mode, one sentence each: those of ``phase`` (one of
    :data:`PHASES`: what ``help`` says, then how to hear the rest), or every one
    (``help all``, ``?``, ``keys``)."""
    every = {
        "number": _("Type the number of a move to play it when it is your turn."),
        "moves": _("Type moves to hear your turn and its moves again."),
        "more": _("Type more to hear the moves on offer not said yet."),
        "time": _("Type time on your turn for more time to choose, once a turn."),
        "pawn": _(
            "Type pawn and a number, for example pawn 2, to hear the moves of that pawn of yours."
        ),
        "board": _("Type board or where to hear where every pawn is and whose turn it is."),
        "repeat": _("Type repeat to hear the last turns played again."),
        "hint": _(
            "Type hint on your turn to hear each move's chance to win, if the table has hints."
        ),
        "rules": _(
            "Type rules to hear the parts of the rules, and rules and a number to hear one part."
        ),
        "table": _("Type table or who to hear who is at the table."),
        "say": _("Type say and your words to chat, for example: say good luck."),
        "colour": _(
            "In the lobby, type colour and a colour to choose yours, and ready when you are."
        ),
        "swap": _(
            "To take a colour someone holds, type swap and the colour to ask them to "
            "trade (swap alone takes your ask back); when asked, type accept or decline."
        ),
        "host": _(
            "The host types start to begin, bot to add a bot (bot blue seats it at blue), and "
            "variant with standard, team or points to choose the game."
        ),
        "rematch": _("After a game, type rematch to ask for another."),
    }
    if phase is None:
        return [
            *every.values(),
            _(
                "Type help to hear the commands for now, help all, ? or keys "
                "to hear every one, and quit to leave."
            ),
        ]
    now = {
        "lobby": ("colour", "swap", "host", "table", "say", "rules"),
        "game": (
            "number",
            "moves",
            "more",
            "time",
            "pawn",
            "board",
            "repeat",
            "hint",
            "rules",
            "table",
            "say",
        ),
        "over": ("rematch", "board", "repeat", "table", "say"),
    }[phase]
    return [*(every[k] for k in now), _("Type help all to hear every command, and quit to leave.")]


def hints_on_words() -> str:
    """What everyone at a table with hints is told."""
    return _(
        "Hints are on at this table: on your turn, type hint to hear each move's chance to win."
    )


def host_hint(name: str) -> str:
    """What the host's own player is told once in the line mode."""
    return _(
        "{name}, you host this table: type {bot} to add a bot, {start} to begin, {help} to "
        "hear every command, or {quit} to stop."
    ).format(name=name, bot="bot", start="start", help="help", quit="quit")


def you_markers() -> list[str]:
    """The words a line addressed to the listener contains in this language (a
    transcript check counts them as naming a person)."""
    # i18n: the words for "you" and "your" that every line spoken to the player
    # contains in your translations, separated by |
    return [w for w in pgettext("person", "you|your").split("|") if w.strip()]


def number_prompt(more: bool = False) -> str:
    """The last line of an offer (and of each ``more``): what to type, and with
    ``more`` moves not said yet, how to hear them (the offer's head says how many)."""
    if more:
        # i18n: more and help are typed as they are, in English
        return _("Type your move's number, more, or help.")
    return _("Type your move's number, or help.")
