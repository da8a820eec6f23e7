"""A command's usage error loads none of what running it needs.

Every command reads and checks its arguments with its options module and little else
(``sorry_lan.commands.options``): ``host --port 99999`` used to load the whole host
(asyncio, zeroconf, the protocol, the authority: some 370 modules) to print one line.
Each case runs :func:`sorry_lan.cli.main` in a fresh interpreter, which exits 2, and
then lists what was loaded.  No command runs.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from import_graph import PACKAGE

from sorry_lan.cli import COMMANDS

#: Libraries that only running a command needs.
STACKS = ("asyncio", "zeroconf", "ifaddr", "msgpack", "prompt_toolkit", "platformdirs", "socket")

#: The package's modules a usage error may load, by prefix: the command line, its
#: words and options, and the few constants and names the options show.
MAY_LOAD = (
    "sorry_lan.cli",
    "sorry_lan.errors",
    "sorry_lan.i18n",
    "sorry_lan.commands.argtypes",
    "sorry_lan.commands.options",
    "sorry_lan.commands.doctor",
    "sorry_lan.commands.rules",
    "sorry_lan.bots.strengths",
    "sorry_lan.net.datadir",
    "sorry_lan.net.seating",
    "sorry_lan.rules.board",
    "sorry_lan.rules.cards",
    "sorry_lan.rules.moves",
    "sorry_lan.rules.variants",
)
PACKAGES = {"sorry_lan", "sorry_lan.commands", "sorry_lan.bots", "sorry_lan.net", "sorry_lan.rules"}

#: Usage errors: an unknown option for every command, and values refused by their type
#: (a port, a colour, a count, a query) or by the command's check.
CASES = [[name, "--no-such-option"] for name in COMMANDS] + [
    ["host", "--port", "99999"],
    ["host", "--web-port", "-1"],
    ["host", "--bots", "4"],
    ["host", "--variant", "chess"],
    ["join", "--colour", "purple"],
    ["bot", "--games", "0"],
    ["bot", "--strength", "godlike"],
    ["list", "--timeout", "-1"],
    ["rules", "judge"],
    ["simulate", "--budget-ms", "0"],
]

_RUN = """
import json, sys
from sorry_lan import cli
try:
    cli.main(json.loads(sys.argv[1]))
except SystemExit as exit_:
    status = exit_.code
else:
    status = None
print(json.dumps({"status": status, "loaded": sorted(sys.modules)}))
"""


def _usage_error(argv: list[str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _RUN, json.dumps(argv)],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        cwd=PACKAGE.parent,
    )
    assert done.returncode == 0, done.stderr
    assert "error:" in done.stderr and "Traceback" not in done.stderr, done.stderr
    out: dict[str, object] = json.loads(done.stdout)
    return out


@pytest.mark.parametrize("argv", CASES, ids=" ".join)
def test_a_usage_error_loads_nothing_that_runs_the_command(argv: list[str]) -> None:
    ran = _usage_error(argv)
    assert ran["status"] == 2
    loaded = ran["loaded"]
    assert isinstance(loaded, list)
    stacks = [m for m in loaded if m.split(".")[0] in STACKS]
    ours = [
        m for m in loaded
        if m.split(".")[0] == "sorry_lan" and m not in PACKAGES and not m.startswith(MAY_LOAD)
    ]
    assert (stacks, ours) == ([], [])
