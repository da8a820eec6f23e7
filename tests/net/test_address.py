"""One address parser for the command line and the find screen, and its edge cases."""

from __future__ import annotations

import argparse

import pytest

from sorry_lan.commands.options import bot, join
from sorry_lan.net.address import AddressError, parse_address
from sorry_lan.wire.limits import DEFAULT_PORT


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10.0.0.2:5000", ("10.0.0.2", 5000)),
        ("  box.local:47474 ", ("box.local", 47474)),
        ("box", ("box", DEFAULT_PORT)),
        ("[::1]:7", ("::1", 7)),
        ("[fe80::1%eth0]:6000", ("fe80::1%eth0", 6000)),
        ("[::1]", ("::1", DEFAULT_PORT)),
        ("fe80::1", ("fe80::1", DEFAULT_PORT)),  # bare IPv6: no port can be told apart
        ("h:1", ("h", 1)),
        ("h:65535", ("h", 65535)),
    ],
)
def test_addresses_people_type(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


def test_the_default_port_is_the_callers() -> None:
    assert parse_address("box", default_port=5) == ("box", 5)
    assert parse_address("box:6", default_port=5) == ("box", 6)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "no host name"),
        ("   ", "no host name"),
        (":5", "no host name"),
        ("[]:5", "no host name"),
        ("a b:4", "no host name"),
        ("h:", "not a port number"),  # a colon promises a port
        ("[::1]:", "not a port number"),
        ("h:x", "not a port number"),
        ("h:0", "not a port number"),
        ("h:65536", "not a port number"),
        ("h:-1", "not a port number"),
        ("h:+80", "not a port number"),
        ("h:²", "not a port number"),  # a digit to str.isdigit, not to int()
        ("h:\uff18\uff10", "not a port number"),  # full-width digits 8 0
        ("[::1", "cannot read the address"),
        ("[::1]x", "cannot read the address"),
        ("[::1]80", "cannot read the address"),
    ],
)
def test_bad_addresses_say_why_in_one_sentence(text: str, why: str) -> None:
    with pytest.raises(AddressError, match=why) as err:
        parse_address(text)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("command", [join, bot])
def test_the_commands_report_a_bad_address_as_a_usage_error(
    command: object, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser(prog="sorry-lan")
    command.add_arguments(parser)  # type: ignore[attr-defined]
    assert parser.parse_args(["--address", "[::1]:7"]).address == ("::1", 7)
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["--address", "box:99999"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "not a port number (1-65535): '99999'" in err and "Traceback" not in err
