"""A client model told the host's messages through a host session in memory, as on a
real connection: a reader (the line mode, the board) then reads the model's views of
the table, which only the model's own fold makes."""

from __future__ import annotations

from sorry_lan.client.model import ClientEvent, ClientModel
from sorry_lan.wire import messages as m
from sorry_lan.wire.session import HostSession

TOKEN = b"t" * 16


class ToldModel(ClientModel):
    """A :class:`ClientModel` welcomed (``pid``) by a host session it is told through."""

    def __init__(self, name: str = "Ann", pid: int | None = 0, *, owner: bool = True,
                 spectate: bool = False, version: int = 4) -> None:  # fmt: skip
        super().__init__(name, spectate=spectate)
        self.host = HostSession(pin_key=None, versions=tuple(range(1, version + 1)))
        self.join(0.0)
        self.host.receive_data(self.data_to_send())
        self.host.welcome(pid, None if pid is None else TOKEN, owner=owner, name=name)
        self.hear()

    def hear(self, *msgs: m.Message) -> list[ClientEvent]:
        """The events the model makes of ``msgs`` (told by the host, in order)."""
        for msg in msgs:
            self.host.send(msg)
        events = self.receive_data(self.host.data_to_send(), 0.0)
        self.host.receive_data(self.data_to_send())
        return events


def shown(st: object, client: ClientModel, ev: object) -> None:
    """The board shows ``ev``: a host's message goes through ``client`` (a
    :class:`ToldModel`) and each event it makes is shown; any other event (a link's
    news, a record, a mismatch) is shown as it is."""
    from sorry_lan.client.model import Connection, GameRecord, ReplayMismatch, TableNews
    from sorry_lan.tui.feed import apply_event
    from sorry_lan.tui.state import UiState

    assert isinstance(st, UiState)
    if isinstance(client, ToldModel) and not isinstance(
        ev, Connection | GameRecord | ReplayMismatch | TableNews
    ):
        assert isinstance(ev, m.Message)
        for made in client.hear(ev):
            apply_event(st, client, made)
        return
    apply_event(st, client, ev)  # type: ignore[arg-type]
