"""Where a phone's page finds its table when the laptop that served it is gone.

Every laptop that hosts a table serves the phone's page at the port it hosts on
+ 1 (:func:`web_port`): the first host at its game port + 1 unless ``--web-port``
chose another, a successor at its standby's port + 1, the port every client was
told it would host on (``succession.order``).  So the page needs no new word
between laptops: :func:`next_pages` turns the order a phone's seat was told into
the addresses of the pages the next hosts would serve, in the order's order, and
the page tries them (and its own) until one answers for the same table.  An IPv6
address is written in brackets (``http://[fd00::2]:47475``); a link-local one
(``fe80::/10``) is left out: it means nothing without its zone (the interface, which
is the sender's, not the phone's), and a browser takes no zone in a page's address.
Pure: it opens nothing and does not judge which of them hosts now (the page asks
each).
"""

from __future__ import annotations

import ipaddress

from sorry_lan.wire import messages as m

#: The highest TCP port: a table hosted there has no port + 1 for its page.
PORT_MAX = 65535


def web_port(port: int) -> int | None:
    """The port a laptop hosting at ``port`` serves the phone's page on (None: none)."""
    return port + 1 if 0 < port < PORT_MAX else None


def page_url(address: str, port: int) -> str:
    """The page's address at an IP literal and port (an IPv6 one in brackets)."""
    return f"http://[{address}]:{port}" if ":" in address else f"http://{address}:{port}"


def reachable(address: str) -> bool:
    """Whether a browser may open a page at ``address``: an IP literal without a
    zone, and not an IPv6 link-local one (which needs its zone)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # (a zone, or no address at all: the wire lets none through)
        return False
    return not (ip.version == 6 and ip.is_link_local)


def next_pages(succession: m.Succession | None) -> list[str]:
    """The pages of the laptops that may host the table next, each address of each
    laptop in the order (those a browser can open: :func:`reachable`), without
    repeats; none before a ``succession`` came."""
    if succession is None:
        return []
    out: list[str] = []
    for laptop in succession.order:
        port = web_port(laptop.port)
        if port is None:
            continue
        for address in filter(reachable, laptop.addrs):
            url = page_url(address, port)
            if url not in out:
                out.append(url)
    return out
