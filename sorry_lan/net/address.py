"""A table's address as a person types it: ``HOST``, ``HOST:PORT``, ``[V6]`` or ``[V6]:PORT``.

One parser for every place that reads an address (``sorry-lan join --address``,
``sorry-lan bot --address``, the find screen's address field).  It checks the form
only: it does not resolve names, check that an address is reachable or open anything.
"""

from __future__ import annotations

from sorry_lan.errors import SorryLanError
from sorry_lan.wire.limits import DEFAULT_PORT


class AddressError(SorryLanError, ValueError):
    """A typed address that is not ``HOST``, ``HOST:PORT``, ``[V6]`` or ``[V6]:PORT``."""


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``text`` as (host, port); ``default_port`` when it names none.

    A bare IPv6 address (more than one ``:``) is a host without a port; give a port
    to one as ``[V6]:PORT``.  Raises :class:`AddressError` (one sentence) otherwise.
    """
    text = text.strip()
    host, port_text = text, None
    if text.startswith("["):
        host, closed, rest = text[1:].partition("]")
        if not closed or (rest and not rest.startswith(":")):
            raise AddressError(f"cannot read the address {text!r} (type [V6]:PORT)")
        port_text = rest[1:] if rest else None
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    if not host or any(c.isspace() for c in host):
        raise AddressError(f"no host name in {text!r} (type HOST:PORT)")
    if port_text is None:
        return host, default_port
    if not (port_text.isascii() and port_text.isdigit()) or not 0 < int(port_text) < 65536:
        raise AddressError(f"not a port number (1-65535): {port_text!r}")
    return host, int(port_text)
