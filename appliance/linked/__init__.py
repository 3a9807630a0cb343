"""Linked cabinets: two cabinets (or desktops) play one game, every race decided by touch time.

wire.py (datagrams, acks and resends: nothing lost, nothing applied twice), clock.py (the two
cabinets' clocks onto one game clock, with an error bound), peer.py (the UDP link: hello, version
and game checks, pings, a bounded reader), game.py (the linked match: edge order across cabinets,
rollback, corrections, pause and resume). docs/linked.md says how it is used and what it promises.
"""
