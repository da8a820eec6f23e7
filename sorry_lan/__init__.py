"""sorry-lan: the Sorry! board game played over a home network."""

__version__ = "0.1.0"
