"""The host's limits: what each connection's clock calls for."""

from __future__ import annotations

from sorry_lan.authority.limits import Due, HostOptions, due

OPTS = HostOptions(hello_timeout=5.0, heartbeat=2.0, dead_after=10.0, resync_rate=4.0)


def test_a_connection_not_admitted_in_time_is_timed_out() -> None:
    kw = {"opened": 0.0, "heard": 0.0, "pinged": 0.0}
    assert due(OPTS, 5.0, admitted=False, **kw) is None
    assert due(OPTS, 5.01, admitted=False, **kw) is Due.HELLO_TIMEOUT
    assert due(OPTS, 50.0, admitted=True, **kw) is Due.SILENT


def test_an_idle_connection_is_pinged_then_given_up() -> None:
    assert due(OPTS, 1.9, admitted=True, opened=0, heard=0, pinged=0) is None
    assert due(OPTS, 2.0, admitted=True, opened=0, heard=0, pinged=0) is Due.PING
    assert due(OPTS, 3.0, admitted=True, opened=0, heard=0, pinged=2.0) is None  # just pinged
    assert due(OPTS, 3.0, admitted=True, opened=0, heard=2.5, pinged=0) is None  # just heard
    assert due(OPTS, 10.5, admitted=True, opened=0, heard=0.4, pinged=10) is Due.SILENT


def test_a_resync_flood_pauses_input_for_a_second_at_most() -> None:
    assert OPTS.resync_pause == 0.25
    assert HostOptions(resync_rate=0.01).resync_pause == 1.0
    assert HostOptions(resync_rate=0.0).resync_pause == 1.0
