"""sorry-lan: the Sorry! board game played over a home network."""

__version__ = "0.1.0"

#: The TCP port a host listens on, and a client dials, when none is given (the
#: protocol's, :data:`sorry_lan.wire.limits.DEFAULT_PORT`): here, so that the command
#: line can show it without loading the protocol.
DEFAULT_PORT = 47474
