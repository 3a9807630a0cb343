"""The bundles on the operator's stick, each checked by RAUC against the cabinet's keyring.

    cabinet = Cabinet.read()                      # compatible and keyring from /etc/rauc/system.conf
    for bundle in look(stick, cabinet):           # newest first
        bundle.version, bundle.signer, bundle.compare, bundle.refused

`rauc info --keyring=…` checks each bundle's signature (and reads its signed manifest: compatible,
version, description): nothing here checks a signature itself. Before an install, `check_payload`
reads the whole bundle once and checks every block of it against the root hash in its signed
manifest (`veritysetup verify`, cryptsetup's own check of RAUC's verity format): a bundle changed
after it was signed is refused before RAUC writes a byte of the other slot (RAUC's install checks
each block only as it writes it, so it would find the change part-way, the other slot left bad).
What RAUC refuses, and what this cabinet cannot take (another architecture, the version it runs),
is said in plain words for the operator (`refused`); a downgrade is installable only when the
operator confirms it. The stick is only read: a full or read-only stick does as well as any.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from appliance.shared.usb_stick import BUNDLE_SUFFIX, bundles_on

SYSTEM_CONF = Path("/etc/rauc/system.conf")
RAUC_TIMEOUT_S = 120.0  # `rauc info` reads the signature at a bundle's end: seconds even on a slow stick

NO_RAUC = "this machine has no RAUC configuration: updates are installed on a cabinet"
DAMAGED = "damaged: its contents do not match its signature (changed, or copied badly): copy it again"
Run = Callable[[list[str]], subprocess.CompletedProcess[str]]
Tool = Callable[[list[str], float | None], subprocess.CompletedProcess[str]]


def run_rauc(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["rauc", *args], capture_output=True, text=True, timeout=RAUC_TIMEOUT_S,
                          stdin=subprocess.DEVNULL)  # fmt: skip


def run_tool(args: list[str], timeout: float | None) -> subprocess.CompletedProcess[str]:
    """Another program (openssl, veritysetup), its words kept."""
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def own_version() -> str:
    """The version of this slot's game (the updater is in the same wheel, on the same root)."""
    try:
        return metadata.version("spit-arcade")
    except metadata.PackageNotFoundError:
        return "0"


@dataclass(frozen=True)
class Cabinet:
    """What the cabinet takes: its compatible string and keyring (RAUC's system.conf), the version
    it runs, and RAUC's own configuration file when it is not the system's (tests)."""

    compatible: str
    keyring: Path
    version: str
    conf: Path | None = None
    problem: str = ""  # why nothing can be installed here (no RAUC configuration: a desktop)

    @classmethod
    def read(cls, conf: Path | None = None, version: str | None = None) -> Cabinet:
        path = conf or Path(os.environ.get("SPIT_ARCADE_RAUC_CONF", "") or SYSTEM_CONF)
        version = version or os.environ.get("SPIT_ARCADE_VERSION", "") or own_version()
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(path.read_text())
            compatible = parser.get("system", "compatible")
            keyring = Path(parser.get("keyring", "path"))
        except (OSError, configparser.Error) as error:
            print(f"spit-arcade-updater: {path}: {error}", file=sys.stderr)
            return cls("", Path(), version, path, NO_RAUC)
        return cls(compatible, keyring, version, None if path == SYSTEM_CONF else path)


@dataclass
class Bundle:
    """One bundle on the stick, as the operator is told of it."""

    name: str
    size: int
    version: str = ""
    compatible: str = ""
    signer: str = ""  # the signing certificate's subject (its CN, O)
    description: str = ""  # what changes: the bundle's signed description (make-bundle.sh --changes)
    build: str = ""
    compare: str = ""  # newer / older / same than the booted slot's version ("" when unreadable)
    refused: str = ""  # why it cannot be installed, in plain words ("" when it can)
    needs_confirm: bool = False  # a downgrade: installed only when the operator confirms it
    detail: str = ""  # RAUC's own words, when it refused
    mtime_ns: int = field(default=0, repr=False)

    @property
    def installable(self) -> bool:
        return not self.refused

    def as_reply(self) -> dict[str, Any]:
        reply = asdict(self)
        del reply["mtime_ns"]
        reply["installable"] = self.installable
        return reply


def version_key(version: str) -> tuple[Any, ...]:
    """Semantic versions compared as RAUC's min-bundle-version does: numbers by value, a pre-release
    (`1.0.0-rc1`) before its release, build metadata (`+…`) ignored."""
    core, _, pre = version.split("+", 1)[0].partition("-")
    numbers = tuple(int(part) if part.isdigit() else -1 for part in re.split(r"[.~]", core))
    numbers += (0,) * (4 - len(numbers))
    return (numbers, (1,) if not pre else (0, *((0, int(p)) if p.isdigit() else (1, p) for p in pre.split("."))))


def compare(version: str, booted: str) -> str:
    new, old = version_key(version), version_key(booted)
    return "newer" if new > old else "older" if new < old else "same"


SIGNED_BY = re.compile(r"Verified (?:inline |detached )?signature by '([^']*)'")


def signer_words(subject: str) -> str:
    """`O = Spit Arcade, OU = …, CN = Spit Arcade updates` -> `Spit Arcade updates (Spit Arcade)`."""
    parts = dict(
        (key.strip(), value.strip()) for key, _, value in (item.partition("=") for item in subject.split(", "))
    )
    cn, org = parts.get("CN", ""), parts.get("O", "")
    if not cn:
        return subject
    return f"{cn} ({org})" if org and org not in cn else cn


def refusal(stderr: str, path: Path) -> str:
    """RAUC's refusal of a bundle in the operator's words."""
    said = stderr.lower()
    if not path.exists():
        return "the stick was pulled (or the bundle removed) while it was being read: plug it in and look again"
    if "signature size is 0" in said or "no signature" in said:
        return "not signed: this bundle has no signature, and the cabinet installs only signed bundles"
    if "verify error" in said or "signature verification failed" in said:
        return "not signed by this cabinet's key: it was signed by someone else, or changed after it was signed"
    if "payload is corrupted" in said or ("hash" in said and "mismatch" in said):
        return DAMAGED
    if "not a bundle" in said or "invalid bundle" in said or "too small" in said or "exceeds" in said:
        return "not an update bundle (or only part of one): copy it again"
    if "signature" in said or "cms" in said:
        return "its signature is damaged or not this cabinet's: copy the bundle again"
    if "input/output error" in said or "no such device" in said:
        return "the stick could not be read (pulled, or failing): plug it in and look again"
    last = stderr.strip().splitlines()[-1] if stderr.strip() else "no reason given"
    return f"RAUC could not read it: {last}"


def inspect(path: Path, cabinet: Cabinet, run: Run = run_rauc) -> Bundle:
    """One bundle checked: `rauc info` against the cabinet's keyring, then what this cabinet takes."""
    try:
        stat = path.stat()
    except OSError:
        return Bundle(path.name, 0, refused=refusal("", path))
    bundle = Bundle(path.name, stat.st_size, mtime_ns=stat.st_mtime_ns)
    if cabinet.problem:
        bundle.refused = cabinet.problem
        return bundle
    args = ["info", f"--keyring={cabinet.keyring}", "--output-format=json", str(path)]
    if cabinet.conf is not None:
        args.insert(1, f"--conf={cabinet.conf}")
    try:
        done = run(args)
    except (OSError, subprocess.SubprocessError) as error:
        bundle.refused = refusal(str(error), path)
        bundle.detail = str(error)
        return bundle
    if done.returncode != 0:
        bundle.refused = refusal(done.stderr, path)
        bundle.detail = _last_words(done.stderr)
        return bundle
    try:
        info = json.loads(done.stdout)
    except ValueError:
        bundle.refused = refusal(done.stdout + done.stderr, path)
        return bundle
    bundle.version = str(info.get("version") or "")
    bundle.compatible = str(info.get("compatible") or "")
    bundle.description = str(info.get("description") or "")
    bundle.build = str(info.get("build") or "")
    found = SIGNED_BY.search(done.stderr)
    bundle.signer = signer_words(found.group(1)) if found else ""
    if bundle.compatible != cabinet.compatible:
        bundle.refused = (f"made for another machine ({bundle.compatible or 'no compatible'}); this cabinet "
                          f"is {cabinet.compatible}")
        return bundle
    if not bundle.version:
        bundle.refused = "it has no version"
        return bundle
    bundle.compare = compare(bundle.version, cabinet.version)
    if bundle.compare == "same":
        bundle.refused = f"the cabinet runs {cabinet.version} already: nothing to update"
    elif bundle.compare == "older":
        bundle.needs_confirm = True
    return bundle


def check_payload(path: Path, cabinet: Cabinet, run: Run = run_rauc, tool: Tool = run_tool) -> tuple[str, str]:
    """Every block of a bundle checked before anything is written: ('', '') when all match its signed
    manifest, else (why, in the operator's words; the tool's own words).

    1. `rauc extract-signature --keyring=…`: RAUC checks the signature against the cabinet's keyring
       (as `rauc info` and `rauc install` do) and hands over the signature it checked;
    2. `openssl cms` takes the manifest out of that signature (the signature not checked again here:
       RAUC has just checked this very file) for its `[bundle]` verity-hash, verity-salt, verity-size;
    3. `veritysetup verify` reads the bundle's data and its hash tree (RAUC's verity format: sha256,
       4 KiB blocks, no superblock, the tree after the data) and checks every block up to that root
       hash, in user space (no device mapper, no privilege). It has no time limit, like RAUC's own
       install: it is as slow as the stick and the processor (a 385 MiB bundle took longer than 250 s
       on the emulated, loaded cabinet), the service menu shows it as a step, and a pulled stick ends
       it with a read error."""
    try:
        size = path.stat().st_size
    except OSError:
        return refusal("", path), ""
    with tempfile.TemporaryDirectory(prefix="spit-arcade-bundle-") as scratch:
        signature, manifest = Path(scratch) / "signature.cms", Path(scratch) / "manifest.raucm"
        args = ["extract-signature", f"--keyring={cabinet.keyring}", str(path), str(signature)]
        if cabinet.conf is not None:
            args.insert(1, f"--conf={cabinet.conf}")
        try:
            done = run(args)
            if done.returncode != 0:
                return refusal(done.stderr, path), _last_words(done.stderr)
            done = tool(["openssl", "cms", "-verify", "-noverify", "-nosigs", "-inform", "DER", "-in", str(signature),
                         "-out", str(manifest)], RAUC_TIMEOUT_S)  # fmt: skip
            if done.returncode != 0:
                return refusal(done.stderr, path), _last_words(done.stderr)
            parser = configparser.ConfigParser(interpolation=None)
            parser.read_string(manifest.read_text())
            if parser.get("bundle", "format", fallback="plain") != "verity":
                return "not an update bundle in the format this cabinet takes (verity): make it again", ""
            root, salt = parser.get("bundle", "verity-hash"), parser.get("bundle", "verity-salt")
            hashes = int(parser.get("bundle", "verity-size"))
            data = size - 8 - signature.stat().st_size - hashes  # [data][hash tree][signature][its size]
            if data <= 0 or data % 4096 or not all(re.fullmatch(r"[0-9a-f]{64}", hex_) for hex_ in (root, salt)):
                return DAMAGED, f"data {data} bytes, verity-size {hashes}, verity-hash {root!r}, salt {salt!r}"
            done = tool(["veritysetup", "verify", "--no-superblock", "--format=1", "--hash=sha256",
                         "--data-block-size=4096", "--hash-block-size=4096", f"--data-blocks={data // 4096}",
                         f"--hash-offset={data}", f"--salt={salt}", str(path), str(path), root],
                        None)  # fmt: skip (no time limit, as RAUC's install has none: a pulled stick ends it)
        except FileNotFoundError as error:
            return f"the cabinet cannot check bundles ({error.filename} is missing): its image is incomplete", ""
        except (OSError, subprocess.SubprocessError, configparser.Error, ValueError) as error:
            if not path.exists():
                return refusal("", path), str(error)
            return f"the bundle could not be checked ({error}): copy it again", str(error)
    if done.returncode != 0:
        if not path.exists():
            return refusal("", path), _last_words(done.stderr)
        return DAMAGED, _last_words(done.stderr) or f"veritysetup: exit {done.returncode}"
    return "", ""


def _last_words(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def look(stick: Path | None, cabinet: Cabinet, run: Run = run_rauc) -> list[Bundle]:
    """Every bundle at the stick's top level, checked, the newest version first (the unreadable
    ones last, by name)."""
    if stick is None:
        return []
    found = [inspect(path, cabinet, run) for path in bundles_on(stick)]
    readable = sorted((b for b in found if b.version), key=lambda b: (version_key(b.version), b.name), reverse=True)
    return readable + sorted((b for b in found if not b.version), key=lambda b: b.name)


def named(stick: Path | None, name: str) -> Path | None:
    """A bundle the game named, as a file of the stick's top level (never a path: no folders, no
    `..`, no hidden files); None when the stick holds no such bundle."""
    if stick is None or not name or "/" in name or "\\" in name or "\0" in name or name.startswith("."):
        return None
    if not name.endswith(BUNDLE_SUFFIX):
        return None
    return next((path for path in bundles_on(stick) if path.name == name), None)
