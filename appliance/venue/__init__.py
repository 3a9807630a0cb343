"""A venue of cabinets: every cabinet's health, earnings, audits and high scores in one place, over
MQTT (a Mosquitto broker per venue, paho-mqtt on each side).

- `init`: `spit-arcade venue init DIR` makes the venue's CA, the broker's certificate, one client
  certificate per cabinet and the broker's configuration with its ACLs.
- `source`: the one module that reads what the game wrote (audits, high scores) for the uplink.
- `messages`: the topics and the envelope every message travels in (cabinet, boot, sequence).
- `outbox`: the uplink's SQLite outbox (every message kept until the broker acknowledged it).
- `board`: the venue's board as the uplink received it, in a SQLite file the game only reads.
- `uplink`: `spit-arcade uplink`, its own systemd unit, the only part of a cabinet with a network.
- `view`: `spit-arcade venue --broker ...`, the operator's web page (never on a cabinet).
"""
