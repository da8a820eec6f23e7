"""LAN game discovery over mDNS/DNS-SD (`_sorry-lan._tcp.local.`).

The only part of sorry-lan that touches zeroconf.  Hosts advertise with
`GameAdvertiser`; players list games with `GameBrowser` (live) or
`async_find_games` (one shot).  The caller creates the zeroconf instance
(`make_zeroconf`) and closes it; nothing here opens game connections.
"""

from sorry_lan.discovery.advert import (
    PROTOCOL_VERSION,
    SERVICE_TYPE,
    SUPPORTED_VERSIONS,
    AdvertError,
    FoundGame,
    GameAd,
    GameState,
    Unjoinable,
    parse_txt,
)
from sorry_lan.discovery.advertiser import (
    DiscoveryError,
    GameAdvertiser,
    local_addresses,
    make_zeroconf,
)
from sorry_lan.discovery.browser import (
    DEFAULT_LIST_TIMEOUT,
    ChangeKind,
    GameBrowser,
    GameEvent,
    Prober,
    async_find_games,
    nothing_found_message,
    tcp_probe,
)

__all__ = [
    "DEFAULT_LIST_TIMEOUT",
    "PROTOCOL_VERSION",
    "SERVICE_TYPE",
    "SUPPORTED_VERSIONS",
    "AdvertError",
    "ChangeKind",
    "DiscoveryError",
    "FoundGame",
    "GameAd",
    "GameAdvertiser",
    "GameBrowser",
    "GameEvent",
    "GameState",
    "Prober",
    "Unjoinable",
    "async_find_games",
    "local_addresses",
    "make_zeroconf",
    "nothing_found_message",
    "parse_txt",
    "tcp_probe",
]
