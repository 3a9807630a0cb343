"""Spit Arcade: a tabletop arcade cabinet that plays the real-time card game Spit."""

__version__ = "0.1.0"
