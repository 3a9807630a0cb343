"""The cabinet image's venue settings, taken at boot from where the operator put them once.

On the image the root is read-only, so the operator does not edit /etc: as Raspberry Pi OS takes a
`wpa_supplicant.conf` off the boot partition, this takes a folder `spit-venue/` off the boot
partition (`/boot/efi` on amd64, `/boot/firmware` on a Pi) or the operator's USB stick, holding
what `spit-arcade venue init` made for this cabinet (`cabinets/<name>/`: `venue.toml`, `ca.crt`,
`cabinet.crt`, `cabinet.key`) and, for Wi-Fi, a `wifi.conf`:

    ssid = "The Bar"
    psk = "the bar's pass phrase"   # none: an open network
    country = "GB"                  # the regulatory domain (optional)

It is run by spit-arcade-venue-setup.service early at every boot, as root:

- the folder's files are checked (venue.toml must have a good [venue]; one without [venue] turns
  the venue off) and copied to the state partition, `/var/lib/spit-arcade/venue-setup/`, which is
  what the image's `/etc/spit-arcade/venue` points at: venue files root:spit-uplink 0640 (the
  game cannot read the key), wifi.conf root 0600 (nor can the uplink). Once copied, the folder may
  go: the cabinet keeps them;
- from wifi.conf, `/run/spit-arcade/venue/wpa_supplicant.conf` (0600, the pass phrase turned into
  the key, as wpa_passphrase does) for spit-arcade-wifi.service.

Whether the venue is on is one file: /etc/spit-arcade/venue/venue.toml. The network units
(systemd-networkd, systemd-resolved, the Wi-Fi, the uplink) have it as their ConditionPathExists,
networkd and resolved with a second, either enough: /run/spit-arcade/link/on, written here from the
cabinet's `[link]` (a linked game needs the network too: appliance/linked/setup.py, which also takes
a `spit-link.toml` off the boot partition or a stick). With neither, none starts, nothing listens
and nothing is sent.

    python -m appliance.venue.setup            # what the unit runs
"""

from __future__ import annotations

import argparse
import grp
import hashlib
import os
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from appliance.linked import setup as link_setup  # the linked game's [link] and network (one Python start)
from appliance.shared.usb_stick import CABINET_MOUNT
from appliance.venue.uplink import load_settings

FOLDER = "spit-venue"
SOURCES = (Path("/boot/efi") / FOLDER, Path("/boot/firmware") / FOLDER, CABINET_MOUNT / FOLDER)
TARGET = Path("/var/lib/spit-arcade/venue-setup")
RUN = Path("/run/spit-arcade/venue")
VENUE_FILES = ("venue.toml", "ca.crt", "cabinet.crt", "cabinet.key")
WIFI = "wifi.conf"
WPA = "wpa_supplicant.conf"
MAX_BYTES = 64 * 1024  # a credential is a few KB: anything larger on the boot partition is not one


def say(text: str) -> None:
    print(f"spit-arcade venue setup: {text}", flush=True)


@dataclass(frozen=True)
class Wifi:
    ssid: str
    psk: str | None
    country: str | None


def read_wifi(path: Path) -> Wifi:
    """A wifi.conf; ValueError saying what is wrong with it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ValueError(f"{path.name}: {error}") from None
    unknown = sorted(set(data) - {"ssid", "psk", "country"})
    if unknown:
        raise ValueError(f"{path.name}: unknown key(s): {', '.join(unknown)} (ssid, psk, country)")
    ssid, psk, country = data.get("ssid"), data.get("psk"), data.get("country")
    if not isinstance(ssid, str) or not 1 <= len(ssid.encode()) <= 32:
        raise ValueError(f"{path.name}: ssid must be text of 1 to 32 bytes")
    if psk is not None and (not isinstance(psk, str) or not 8 <= len(psk) <= 63
                            or not all(32 <= ord(c) < 127 for c in psk)):
        raise ValueError(f"{path.name}: psk must be 8 to 63 printable ASCII characters (WPA2's pass phrase)")
    if country is not None and (not isinstance(country, str) or len(country) != 2 or not country.isalpha()):
        raise ValueError(f"{path.name}: country must be two letters (e.g. GB, DE)")
    return Wifi(ssid, psk, country.upper() if country else None)


def wpa_config(wifi: Wifi) -> str:
    """wpa_supplicant's configuration: the SSID in hex and the key derived from the pass phrase
    (PBKDF2, as wpa_passphrase does), so no character the operator typed needs quoting."""
    lines = ["# Made at boot by spit-arcade venue setup from the operator's wifi.conf; do not edit."]
    if wifi.country:
        lines.append(f"country={wifi.country}")
    lines += ["network={", f"\tssid={wifi.ssid.encode().hex()}", "\tscan_ssid=1"]
    if wifi.psk is None:
        lines.append("\tkey_mgmt=NONE")
    else:
        key = hashlib.pbkdf2_hmac("sha1", wifi.psk.encode(), wifi.ssid.encode(), 4096, 32).hex()
        lines += ["\tkey_mgmt=WPA-PSK", f"\tpsk={key}"]
    return "\n".join([*lines, "}"]) + "\n"


def _ids(user: str) -> tuple[int, int] | None:
    try:
        return 0, grp.getgrnam(user).gr_gid if user else 0
    except KeyError:
        return None


def _put(path: Path, data: bytes, mode: int, owner: tuple[int, int] | None) -> None:
    temporary = path.with_name(f".{path.name}.new")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    if owner is not None:
        os.chown(temporary, *owner)
    os.chmod(temporary, mode)
    os.replace(temporary, path)


def take(source: Path, target: Path, group: str = "spit-uplink") -> list[str]:
    """Copy the operator's folder to `target` (replacing what was there); what was done, in words.
    ValueError (and `target` unchanged) when a file is not what it should be."""
    found = {name: source / name for name in (*VENUE_FILES, WIFI) if (source / name).is_file()}
    for name, path in found.items():
        if path.stat().st_size > MAX_BYTES:
            raise ValueError(f"{path}: {path.stat().st_size} bytes, not a {name}")
    if "venue.toml" not in found:
        raise ValueError(f"{source}: no venue.toml (copy in cabinets/<name>/ from spit-arcade venue init)")
    settings = load_settings(found["venue.toml"])  # ValueError saying what is wrong
    if settings is None:
        if target.exists():
            shutil.rmtree(target)
        return [f"{source / 'venue.toml'} has no [venue]: the venue is off (its settings removed)"]
    wanted = {p.name for p in (settings.ca, settings.cert, settings.key)}
    missing = sorted(n for n in wanted if not (source / n).is_file())
    if missing:
        raise ValueError(f"{source}: venue.toml names {', '.join(missing)}, not there")
    if WIFI in found:
        read_wifi(found[WIFI])
    owner = _ids(group) if os.geteuid() == 0 else None
    target.mkdir(mode=0o750, parents=True, exist_ok=True)
    if owner is not None:
        os.chown(target, *owner)
    os.chmod(target, 0o750)
    copied = []
    for name in sorted(set(VENUE_FILES) | wanted):
        if (source / name).is_file():
            _put(target / name, (source / name).read_bytes(), 0o640, owner)
            copied.append(name)
    if WIFI in found:
        _put(target / WIFI, found[WIFI].read_bytes(), 0o600, (0, 0) if owner is not None else None)
        copied.append(WIFI)
    for old in target.iterdir():
        if old.name not in copied:
            old.unlink()
    return [f"cabinet {settings.cabinet!r} (broker {settings.broker}:{settings.port}): took "
            f"{', '.join(copied)} from {source} into {target}"]


def network(target: Path, run: Path) -> list[str]:
    """wpa_supplicant's configuration in `run` from the cabinet's wifi.conf (none: removed)."""
    wpa = run / WPA
    if not (target / "venue.toml").is_file() or not (target / WIFI).is_file():
        wpa.unlink(missing_ok=True)
        return []
    wifi = read_wifi(target / WIFI)
    run.mkdir(mode=0o700, parents=True, exist_ok=True)
    _put(wpa, wpa_config(wifi).encode(), 0o600, None)
    return [f"Wi-Fi {wifi.ssid!r} ({'WPA2' if wifi.psk else 'open'}): {wpa}"]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m appliance.venue.setup", description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, action="append", default=None,
                        help=f"where the operator's folder may be (default: {', '.join(map(str, SOURCES))})")
    parser.add_argument("--target", type=Path, default=TARGET)
    parser.add_argument("--run", type=Path, default=RUN)
    parser.add_argument("--config", type=Path, default=link_setup.CABINET_CONFIG,
                        help="the cabinet's settings, where a spit-link.toml's [link] goes (appliance/linked/setup.py)")
    parser.add_argument("--link-source", type=Path, action="append", default=None,
                        help="where the operator's spit-link.toml may be (default: the boot partition's, the stick's)")
    parser.add_argument("--link-taken", type=Path, default=link_setup.TAKEN)
    parser.add_argument("--link-flag", type=Path, default=link_setup.FLAG)
    args = parser.parse_args(argv)
    status = 0
    for source in args.source or SOURCES:
        if not source.is_dir():
            continue
        try:
            for line in take(source, args.target):
                say(line)
        except (ValueError, OSError) as error:
            say(f"not taken, the cabinet keeps what it had: {error}")
            status = 1
        break  # the first folder found is the operator's
    try:
        for line in network(args.target, args.run):
            say(line)
    except (ValueError, OSError) as error:
        say(f"no Wi-Fi: {error}")
        status = 1
    if link_setup.main(tuple(args.link_source or link_setup.SOURCES), args.config, args.link_taken, args.link_flag,
                       say) != 0:
        status = 1
    if not (args.target / "venue.toml").is_file():
        if args.link_flag.exists():
            say("the venue is off: the network comes up for the linked game only")
        else:
            say("the venue is off and no linked game: no network, nothing listens, nothing is sent")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
