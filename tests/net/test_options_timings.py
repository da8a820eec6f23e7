"""The client's and the heir's options build their delays as one
:class:`~sorry_lan.succession.timings.LaptopTimings`, checked when the options are
made: delays that break a relation never reach a running client."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sorry_lan.net.client import ClientOptions
from sorry_lan.net.heir import HeirOptions
from sorry_lan.succession.timings import LaptopTimings, LaptopTimingsError


def test_the_default_options_are_the_default_timings() -> None:
    assert ClientOptions().timings == LaptopTimings()
    assert HeirOptions().timings == LaptopTimings()


def test_the_options_delays_are_their_timings() -> None:
    quick = ClientOptions(heartbeat=0.2, dead_after=1.0, reconnect_for=1.5, asleep_for=3.0,
                          connect_timeout=0.5)  # fmt: skip
    t = quick.timings
    assert (t.heartbeat, t.dead_after, t.reconnect_for, t.asleep_for, t.connect_timeout) == (
        0.2, 1.0, 1.5, 3.0, 0.5)
    h = HeirOptions(attempt_timeout=0.5, host_retry_max=0.2).timings
    assert (h.attempt_timeout, h.host_retry_max) == (0.5, 0.2)


@pytest.mark.parametrize(
    "made",
    [lambda: ClientOptions(heartbeat=30.0),  # not before the silence that ends a link
     lambda: ClientOptions(reconnect_for=900.0),  # past asleep_for
     lambda: HeirOptions(attempt_timeout=20.0),  # the standby would cut its voters short
     lambda: HeirOptions(host_retry_max=0.01)],  # shorter than the first wait
)
def test_options_that_break_a_relation_are_refused(made: Callable[[], object]) -> None:
    with pytest.raises(LaptopTimingsError):
        made()
