"""The help overlay's text: the keys of the screen on show and the rules of the variant.

:func:`help_text` picks the sections for a :class:`UiState` (find, lobby and the
host's lobby keys, watching, game, game over; the rules in short, and team play or
play for points when that is the variant).  Plain text only: the layout draws the box
and scrolls it; nothing here reads keys.
"""

from __future__ import annotations

from sorry_lan.rules.variants import Variant

from .state import Screen, UiState

_HELP_FIND = """\
Find a game
  Up/Down           choose a game found on the network
  Enter             join it (or the address typed below)
  Tab, Shift-Tab    move between the list and the fields
  q                 quit (Ctrl-C too)"""

_HELP_LOBBY = """\
Lobby
  1-4               sit at that colour
  space             say you are ready (or not)
  t                 chat (Enter sends, Esc closes)
  q                 leave (asks first; Ctrl-C twice leaves at once)"""

_HELP_LOBBY_HOST = """\
  a / x             add a bot / remove one
  l                 the newest bot's strength (each press: the next one)
  v                 change the rules: standard, team play, play for points
  s                 start the game (free seats are left empty;
                    team play fills them with bots)"""

_HELP_WATCH = """\
Watching
  You have no seat: the board, the log and the chat are yours to
  follow.  PgUp/PgDn scroll the log (L shows all of it in the
  board's place), t chats, q leaves."""

_HELP_GAME = """\
Keys
  Up/Down, j/k      choose a move (or click it)
  1-9, 10, 11 ...   choose move number N (type two digits quickly)
  Enter             play the chosen move
  Enter, ->, l      split 7: open a first part's second parts
  Esc, <-, h, Bksp  split 7: back to the first parts
  PgUp/PgDn, End    scroll the log back / forward / to the end
  L                 the whole log in the board's place, and back
  b                 bell on your turn: on / off
  t                 chat (Enter sends, Esc closes)
  q                 leave (asks first; Ctrl-C twice leaves at once)
  r                 host lost: rejoin, keeping your seat"""

_HELP_OVER = """\
Game over
  r                 ask for a rematch (it starts when every player asks)
  PgUp/PgDn, End    scroll the log of the game (L: all of it in the board's place)
  t                 chat
  q                 leave"""

_HELP_RULES = """\
Rules in short
  Draw a card, move one pawn; you must move if you can.
  1 or 2 leaves START; a 2 draws again. 4 goes back 4;
  10 is 10 forward or 1 back; 7 may be split between two
  pawns; 11 moves 11 or swaps with an opponent; Sorry!
  takes a pawn from START onto an opponent, who goes back.
  Land on an opponent: it goes back to START. Stop on
  another colour's triangle: slide, bumping all on it.
  Exact count to reach HOME. All four HOME wins."""

_HELP_TEAM = """\
Team play
  Red plays with Yellow, Blue with Green; the first team with
  all eight pawns HOME wins.  A 7 splits between any two of
  the team's pawns; 1 and 2 bring out either partner's pawn.
  Once your four are HOME, your cards move your partner's.
  Partners can bump each other."""

_HELP_POINTS = """\
Play for points
  You hold five cards (the Hand line): each move plays one
  and draws a new one; with no move, discard one.  Pawns
  begin three in START, one on the exit square.  Scoring:
  5 per own pawn HOME; the winner also 5 per opponent pawn
  not HOME and a bonus of 100, 50 or 25."""


def help_text(st: UiState) -> str:
    """The help for the screen on show (and the rules of the variant being played)."""
    if st.screen is Screen.FIND:
        parts = [_HELP_FIND]
    elif st.spectating:
        parts = [_HELP_WATCH]
    elif st.screen is Screen.LOBBY:
        parts = [_HELP_LOBBY + ("\n" + _HELP_LOBBY_HOST if st.is_host else "")]
    elif st.screen is Screen.GAME:
        parts = [_HELP_GAME]
    else:
        parts = [_HELP_OVER]
    if st.screen is not Screen.FIND:
        parts.append(_HELP_RULES)
        if st.variant is Variant.TEAM:
            parts.append(_HELP_TEAM)
        elif st.variant is Variant.POINTS:
            parts.append(_HELP_POINTS)
    return "\n\n".join(parts)
