"""The cabinet image's linked-game setting, given once from the boot partition or a stick, and the
network the link needs.

The root is read-only and the operator has no shell, so, as the venue's settings are given (the
`spit-venue/` folder, appliance/venue/setup.py) and as Raspberry Pi OS takes a file off its boot
partition, a `spit-link.toml` on the boot partition (`/boot/efi` on amd64, `/boot/firmware` on a Pi)
or at the top of the operator's USB stick sets the cabinet's `[link]` (docs/linked.md):

    [link]
    join = "192.168.1.20:50070"     # or listen = 50070, or join = "venue"
    seats = [2]
    word = "Ahorn am Tresen 7"      # optional: the link word (both cabinets the same; never shown)

It is checked as `check-config` checks the settings file (the same words where it is refused: then
nothing changes) and written into the cabinet's settings (`/var/lib/spit-arcade/config.toml`) by
`config_file.adjust`, the one writer, every other setting kept; each change goes into the audits'
adjustments ("spit-link.toml"), as `spit-arcade settings set` records its own. A file with an empty
`[link]` turns the link off. A file is taken once: its digest is kept on the state partition, so the
same file left on the boot partition does not undo what the service menu changed since; a changed
file is taken again.

Then the network: the image brings up its network (systemd-networkd, systemd-resolved) only when the
venue is on (`/etc/spit-arcade/venue/venue.toml`) or the cabinet's `[link]` is: this writes
`/run/spit-arcade/link/on` when the settings have a `[link]`, and removes it when they have none
(venue-on.conf's ConditionPathExists). With neither, nothing listens and nothing is sent. The
service menu's change of `[link]` holds from the next start, as the link itself opens at the game's
start.

Both are done by spit-arcade-venue-setup.service at every boot, before the network units (one
Python start: appliance/venue/setup.py calls `main` here).
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Callable
from pathlib import Path

from appliance.check_config import CABINET_CONFIG
from appliance.shared.checks import Checker
from appliance.shared.config_file import adjust, read_settings_text
from appliance.shared.link_setting import check_link, hidden
from appliance.shared.usb_stick import CABINET_MOUNT

FILE = "spit-link.toml"
SOURCES = (Path("/boot/efi") / FILE, Path("/boot/firmware") / FILE, CABINET_MOUNT / FILE)
TAKEN = Path("/var/lib/spit-arcade/link-setup.taken")  # the digest of the file taken last
FLAG = Path("/run/spit-arcade/link/on")  # the network units' condition (with the venue's venue.toml)
MAX_BYTES = 64 * 1024


def take(source: Path, config: Path, taken: Path) -> list[str]:
    """`source`'s `[link]` into the settings file `config` (once per file: `taken`); what was done, in
    words. ValueError (and `config` unchanged) saying what is wrong with it, in check-config's words."""
    data = source.read_bytes()
    if len(data) > MAX_BYTES:
        raise ValueError(f"{source}: {len(data)} bytes, not a settings file")
    digest = hashlib.sha256(data).hexdigest()
    try:
        if taken.read_text(encoding="utf-8").strip() == digest:
            return [f"{source} was taken before (the service menu's changes since hold)"]
    except OSError:
        pass
    try:
        given = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as error:
        raise ValueError(f"{source}: not TOML ({error})") from None
    check = Checker(str(source))
    unknown = sorted(set(given) - {"link"})
    if unknown:
        raise ValueError(f"{source}: only [link] is taken from it, not {', '.join(unknown)} (the service menu or "
                         "`spit-arcade settings set` changes the rest)")
    table = given.get("link", {})
    if not isinstance(table, dict):
        raise ValueError(f"{source}: link: must be a table, [link]")
    link = check_link(table, check)
    if check.problems:
        raise ValueError("; ".join(str(problem) for problem in check.problems))
    done = adjust(config, {}, tables={"link": link})
    if done.error or done.refused:
        raise ValueError(f"{config}: not changed: {done.why_not()}")
    from appliance.operator.office import record_adjustments

    changes = [(c.key, hidden(c.key, c.old), hidden(c.key, c.new)) for c in done.changes]  # (never the word)
    said = [f"{source}: {key} = {new!r} (was {old!r})" for key, old, new in changes]
    why_not = record_adjustments(config, changes, FILE)
    if why_not is not None:
        said.append(f"(changed, but not recorded in the audits' adjustments: {why_not})")
    taken.write_text(digest + "\n", encoding="utf-8")
    return said or [f"{source}: [link] as the settings have it already"]


def network(config: Path, flag: Path) -> list[str]:
    """The link's network flag from the settings (read as the game reads them, its last good copy
    where the file is damaged): written where they have a `[link]`, else removed."""
    table = read_settings_text(config).data.get("link")
    link = check_link(table, Checker(str(config))) if isinstance(table, dict) else {}
    if not link:
        flag.unlink(missing_ok=True)
        return []
    flag.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    way = f"listen on port {link['listen']}" if "listen" in link else f"join {link['join']}"
    flag.write_text(way + "\n", encoding="utf-8")
    return [f"a linked game ({way}): the network comes up for it"]


def main(sources: tuple[Path, ...] = SOURCES, config: Path = CABINET_CONFIG, taken: Path = TAKEN,
         flag: Path = FLAG, say: Callable[[str], None] = print) -> int:
    """The first `spit-link.toml` found taken, then the network's flag; 1 if the file was refused."""
    status = 0
    for source in sources:
        if not source.is_file():
            continue
        try:
            lines = take(source, config, taken)
        except (ValueError, OSError) as error:
            lines, status = [f"not taken, the cabinet keeps its [link]: {error}"], 1
        for line in lines:
            say(line)
        break  # the first file found is the operator's
    try:
        for line in network(config, flag):
            say(line)
    except OSError as error:
        say(f"the link's network flag not written ({error}): no network for the link")
        status = 1
    return status
