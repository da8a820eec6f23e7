"""The effects vocabulary: frozen values, and the Effect union names every kind."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import pytest

from sorry_lan.authority import effects as fx


def _kinds() -> set[type]:
    return {
        cls for _name, cls in inspect.getmembers(fx, inspect.isclass)
        if cls.__module__ == fx.__name__ and cls is not fx.TableSummary
    }


def test_the_effect_union_names_every_kind_of_effect() -> None:
    assert set(typing.get_args(fx.Effect)) == _kinds()


def test_effects_are_frozen_values() -> None:
    send = fx.Send(3, b"x")
    assert send == fx.Send(3, b"x") and hash(send) == hash(fx.Send(3, b"x"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        send.cid = 4  # type: ignore[misc]
    assert fx.Close(3) == fx.Close(3, None) != fx.Close(3, 2.0)
    assert fx.Stop() == fx.Stop()
