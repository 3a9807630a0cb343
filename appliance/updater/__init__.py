"""The cabinet's updater: a small root program apart from the game, started by its socket
(systemd/spit-arcade-updater.socket), which the game asks over a narrow line-JSON protocol to look
at the update bundles on the operator's USB stick, install one with RAUC, report the slots' status
and restart into the new slot. The game never installs anything itself and never names a path.

    protocol.py   the socket's protocol (version 1): requests, replies, the game's `Client`
    bundles.py    the bundles on the stick, each checked by `rauc info` against the cabinet's keyring
    slots.py      RAUC's slot status read: the booted slot, the last update's outcome, a fallback
    server.py     the socket-activated server (`spit-arcade-updater`): one install at a time

RAUC does the installing and every signature check; nothing here writes a disk. It imports
nothing of the game (no pygame, no store): systemd/README.md, "The updater".
"""
