"""LAN game discovery over mDNS/DNS-SD (`_sorry-lan._tcp.local.`).

The only part of sorry-lan that touches zeroconf.  Hosts advertise with
`GameAdvertiser`; players list games with `GameBrowser` (live) or
`async_find_games` (one shot); `TableAdvertiser` keeps a running host's
table advertised (it owns its zeroconf instance) and `async_wait_for_game`
picks a game to join.  Otherwise the caller creates the zeroconf instance
(`make_zeroconf`) and closes it; nothing here opens game connections.
"""

from sorry_lan.discovery.advert import (
    SERVICE_TYPE,
    AdvertError,
    FoundGame,
    GameAd,
    Unjoinable,
    current_tables,
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
from sorry_lan.discovery.finder import async_wait_for_game, matches
from sorry_lan.discovery.hosting import (
    AdvertPlan,
    TableAdvertiser,
    ad_from_summary,
    advert_plan,
    join_addresses,
)

__all__ = [
    "DEFAULT_LIST_TIMEOUT",
    "SERVICE_TYPE",
    "AdvertError",
    "AdvertPlan",
    "ChangeKind",
    "DiscoveryError",
    "FoundGame",
    "GameAd",
    "GameAdvertiser",
    "GameBrowser",
    "GameEvent",
    "Prober",
    "TableAdvertiser",
    "Unjoinable",
    "ad_from_summary",
    "advert_plan",
    "async_find_games",
    "async_wait_for_game",
    "current_tables",
    "join_addresses",
    "local_addresses",
    "make_zeroconf",
    "matches",
    "nothing_found_message",
    "parse_txt",
    "tcp_probe",
]
