"""The update bundles and the USB stick the virtual cabinet is updated from, made on the host.

From the image under test: slot A's root file system (its ext4, read off the image) is the base of
- `good`: a newer version (the image's version, its last number one more), which says so in
  /etc/spit-arcade/bundle-version and where the game itself reads its version (`set_game_version`:
  the installed package's metadata and `appliance.__version__`), signed with the development key
  (systemd/image/make-bundle.sh);
- `broken`: newer still (again in both places), whose game fails at every start (a drop-in
  ExecStart=/bin/false): installed, it must be left for the slot it came from;
- `bad`: bundles every cabinet must refuse, made on a small root file system (refused before a byte
  of it is written, whatever its size): unsigned, one byte changed, another architecture's, another
  key's, and an older version (a downgrade, refused unless the operator confirms it).
They are made once per image (kept beside it, with a stamp of the image), then laid on a stick's disk
image: partition 1 FAT32 with the bundles (what the cabinet mounts), partition 2 a second FAT file
system that nothing may mount.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

MIB = 2**20


@dataclass
class Bundles:
    base_version: str
    version: str  # the good bundle's
    good: Path
    broken: Path
    bad: dict[str, Path] = field(default_factory=dict)  # what is wrong with it -> the bundle
    made_s: dict[str, float] = field(default_factory=dict)  # how long each full-size bundle took to make
    broken_version: str = ""


def run(*command: str) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def partition(image: Path, name: str) -> tuple[int, int]:
    """(start, size) in bytes of the image's partition called `name`."""
    table = json.loads(run("sfdisk", "--json", str(image)))["partitiontable"]
    for part in table["partitions"]:
        if part.get("name") == name:
            return int(part["start"]) * 512, int(part["size"]) * 512
    raise ValueError(f"no partition {name} in {image}")


def slot_rootfs(image: Path, to: Path) -> Path:
    """Slot A's ext4 as a file (as long as its file system, sparse)."""
    start, size = partition(image, "spit-root-a")
    with open(image, "rb") as disk:
        disk.seek(start)
        head = disk.read(2048)
    block = 1024 << int.from_bytes(head[1024 + 24 : 1024 + 28], "little")  # s_log_block_size
    blocks = int.from_bytes(head[1024 + 4 : 1024 + 8], "little")  # s_blocks_count_lo
    length = min(size, block * blocks)
    subprocess.run(
        ["dd", f"if={image}", f"of={to}", "bs=1M", f"skip={start // MIB}", f"count={length // MIB}",
         "conv=sparse", "status=none"],
        check=True,
    )  # fmt: skip
    return to


def put_file(rootfs: Path, path: str, text: str, mkdir: str = "") -> None:
    """A file written into an ext4 image, without mounting it (debugfs)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as source:
        source.write(text)
    requests = f"mkdir {mkdir}\n" if mkdir else ""
    requests += f"rm {path}\nwrite {source.name} {path}\nsif {path} mode 0100644\n"
    subprocess.run(["debugfs", "-w", "-f", "-", str(rootfs)], input=requests, capture_output=True, text=True,
                   check=True)  # fmt: skip
    Path(source.name).unlink()
    said = run("debugfs", "-R", f"cat {path}", str(rootfs))
    if said != text:
        raise RuntimeError(f"debugfs did not write {path} into {rootfs}")


VENV_LIB = "/opt/spit-arcade/venv/lib"


def debugfs_names(rootfs: Path, folder: str) -> list[str]:
    """The names in a folder of an ext4 image (debugfs `ls -p`: /inode/mode/uid/gid/name/size/)."""
    said = run("debugfs", "-R", f"ls -p {folder}", str(rootfs))
    return [fields[5] for fields in (line.split("/") for line in said.splitlines()) if len(fields) > 6
            and fields[5] not in (".", "..")]  # fmt: skip


def set_game_version(rootfs: Path, version: str) -> str:
    """The game in an ext4 root file system made to say `version`, where it reads it: the installed
    package's metadata (`importlib.metadata`, which the updater and the service menu show; its
    folder renamed to match, as pip names it) and `appliance.__version__` (the link's hello, the
    venue's heartbeat), that module's cached bytecode removed. Returns the version it said before."""
    python = next(name for name in debugfs_names(rootfs, VENV_LIB) if name.startswith("python3"))
    packages = f"{VENV_LIB}/{python}/site-packages"
    info = next(name for name in debugfs_names(rootfs, packages) if re.fullmatch(r"spit_arcade-.+\.dist-info", name))
    metadata = run("debugfs", "-R", f"cat {packages}/{info}/METADATA", str(rootfs))
    before = re.search(r"^Version: (\S+)$", metadata, re.M)
    if before is None:
        raise RuntimeError(f"no Version in {packages}/{info}/METADATA")
    put_file(rootfs, f"{packages}/{info}/METADATA", re.sub(r"^Version: \S+$", f"Version: {version}", metadata,
                                                          count=1, flags=re.M))  # fmt: skip
    module = f"{packages}/appliance/__init__.py"
    source = run("debugfs", "-R", f"cat {module}", str(rootfs))
    changed = re.sub(r'^__version__ = "[^"]*"$', f'__version__ = "{version}"', source, count=1, flags=re.M)
    if changed == source and f'__version__ = "{version}"' not in source:
        raise RuntimeError(f"no __version__ in {module}")
    put_file(rootfs, module, changed)
    cached = f"{packages}/appliance/__pycache__"
    requests = "".join(f"rm {cached}/{name}\n" for name in debugfs_names(rootfs, cached)
                       if name.startswith("__init__."))  # fmt: skip
    renamed = f"spit_arcade-{version}.dist-info"
    if renamed != info:  # (a rename: a second name for the folder, then the first one taken away)
        requests += f"ln {packages}/{info} {packages}/{renamed}\nunlink {packages}/{info}\n"
    if requests:
        subprocess.run(["debugfs", "-w", "-f", "-", str(rootfs)], input=requests, capture_output=True, text=True,
                       check=True)  # fmt: skip
    names = debugfs_names(rootfs, packages)
    if renamed not in names or (info != renamed and info in names):
        raise RuntimeError(f"debugfs did not rename {info} to {renamed} in {rootfs}")
    return before.group(1)


def newer(version: str, by: int = 1) -> str:
    """The version with its last number `by` more: 0.1.0 -> 0.1.1."""
    match = re.match(r"^(.*?)(\d+)([^\d]*)$", version)
    if not match:
        return f"{version}.{by}"
    return f"{match.group(1)}{int(match.group(2)) + by}{match.group(3)}"


def make_bundle(repo: Path, rootfs: Path, version: str, out: Path, *extra: str, arch: str = "amd64") -> Path:
    subprocess.run(
        [str(repo / "systemd/image/make-bundle.sh"), "--rootfs", str(rootfs), "--arch", arch, "--version", version,
         "--out", str(out), *extra],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    return out


def flip_byte(bundle: Path, at: int, to: Path) -> Path:
    shutil.copyfile(bundle, to)
    with open(to, "r+b") as f:
        f.seek(at)
        byte = f.read(1)
        f.seek(at)
        f.write(bytes([byte[0] ^ 0xFF]))
    return to


def bad_bundles(repo: Path, version: str, folder: Path) -> dict[str, Path]:
    """The bundles a cabinet must refuse, each on a small root file system."""
    tree = folder / "small"
    tree.mkdir(exist_ok=True)
    (tree / "noise").write_bytes(random.Random(23).randbytes(256 * 1024))  # (a squashfs larger than 4 KiB)
    small = folder / "small.ext4"
    small.unlink(missing_ok=True)
    run("mkfs.ext4", "-q", "-L", "spit-root", "-d", str(tree), str(small), "8M")
    bad: dict[str, Path] = {}
    # Unsigned: a squashfs of a bundle's content, no signature after it.
    content = folder / "unsigned"
    content.mkdir(exist_ok=True)
    shutil.copyfile(small, content / "rootfs.ext4")
    (content / "manifest.raucm").write_text(
        f"[update]\ncompatible=spit-arcade-amd64\nversion={version}\n\n[image.rootfs]\nfilename=rootfs.ext4\n"
    )
    unsigned = folder / "bad-unsigned.raucb"
    unsigned.unlink(missing_ok=True)
    run("mksquashfs", str(content), str(unsigned), "-quiet", "-all-root", "-noappend")
    bad["unsigned"] = unsigned
    # Signed with the development key, one byte of its payload changed.
    signed = make_bundle(repo, small, version, folder / "small-signed.raucb")
    bad["one byte changed"] = flip_byte(signed, signed.stat().st_size // 3, folder / "bad-tampered.raucb")
    # Signed with the development key, for the other architecture.
    other_arch = folder / "bad-arm64.raucb"
    bad["the other architecture's"] = make_bundle(repo, small, version, other_arch, arch="arm64")
    # Signed with a key of another CA.
    other_ca, other_key = folder / "other-ca.pem", folder / "other-ca.key"
    run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30",
        "-subj", "/O=Someone Else/CN=not the cabinet's key",
        "-keyout", str(other_key), "-out", str(other_ca))  # fmt: skip
    bad["another key's"] = make_bundle(
        repo, small, version, folder / "bad-other-key.raucb",
        "--cert", str(other_ca), "--key", str(other_key), "--keyring", str(other_ca),
    )  # fmt: skip
    # Signed with the development key, older than any cabinet: a downgrade, asked without confirming it.
    bad["a downgrade, not confirmed"] = make_bundle(repo, small, "0.0.1", folder / "bad-older.raucb")
    return bad


def make_bundles(repo: Path, image: Path, folder: Path) -> Bundles:
    """The bundles for `image`, made once (kept in `folder` with a stamp of the image)."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = f"{image.resolve()} {image.stat().st_size} {image.stat().st_mtime_ns}"
    saved = folder / "bundles.json"
    if saved.exists():
        with_stamp = json.loads(saved.read_text())
        if with_stamp.get("stamp") == stamp:
            found = with_stamp["bundles"]
            return Bundles(found["base_version"], found["version"], Path(found["good"]), Path(found["broken"]),
                           {k: Path(v) for k, v in found["bad"].items()}, found["made_s"],
                           found.get("broken_version", ""))  # fmt: skip
    manifest = image.with_name(image.name.removesuffix(".img") + ".manifest.json")
    base = json.loads(manifest.read_text())["version"] if manifest.exists() else "0.1.0"
    version, broken_version = newer(base), newer(base, 2)
    made: dict[str, float] = {}
    rootfs = slot_rootfs(image, folder / "rootfs.ext4")
    put_file(rootfs, "/etc/spit-arcade/bundle-version", f"{version}\n")
    set_game_version(rootfs, version)
    started = time.monotonic()
    good = make_bundle(repo, rootfs, version, folder / f"spit-arcade-{version}-amd64.raucb")
    made["good"] = round(time.monotonic() - started, 1)
    print(f"cabinet-test: bundle {good.name} ({good.stat().st_size / MIB:.0f} MiB) made in {made['good']} s",
          file=sys.stderr, flush=True)  # fmt: skip
    put_file(rootfs, "/etc/spit-arcade/bundle-version", f"{broken_version}\n")
    set_game_version(rootfs, broken_version)
    drop_in = "/etc/systemd/system/spit-arcade.service.d"
    put_file(rootfs, f"{drop_in}/broken.conf", "[Service]\nExecStart=\nExecStart=/bin/false\n", mkdir=drop_in)
    started = time.monotonic()
    broken_name = f"spit-arcade-{broken_version}-amd64-broken.raucb"
    broken = make_bundle(repo, rootfs, broken_version, folder / broken_name)
    made["broken"] = round(time.monotonic() - started, 1)
    rootfs.unlink()
    bad = bad_bundles(repo, newer(base, 3), folder)
    bundles = Bundles(base, version, good, broken, bad, made, broken_version)
    saved.write_text(json.dumps({"stamp": stamp, "bundles": {
        "base_version": base, "version": version, "broken_version": broken_version, "good": str(good),
        "broken": str(broken),
        "bad": {k: str(v) for k, v in bad.items()}, "made_s": made}}))  # fmt: skip
    return bundles


def stick_image(path: Path, files: list[Path]) -> Path:
    """A USB stick's disk: an MBR, partition 1 FAT32 holding `files` (what the cabinet mounts), and
    partition 2 a small FAT file system (which nothing may mount)."""
    need_mb = sum(f.stat().st_size for f in files) // MIB + 64
    first_mb, second_mb = need_mb + need_mb // 10, 8
    parts = []
    for n, (size_mb, label) in enumerate(((first_mb, "SPITSTICK"), (second_mb, "OTHER")), start=1):
        part = path.with_name(f"{path.name}.p{n}")
        part.unlink(missing_ok=True)
        run("mkfs.vfat", "-F", "32" if n == 1 else "12", "-n", label, "-C", str(part), str(size_mb * 1024))
        parts.append(part)
    if files:
        run("mcopy", "-i", str(parts[0]), *map(str, files), "::/")
    path.unlink(missing_ok=True)
    subprocess.run(["truncate", "-s", f"{1 + first_mb + second_mb + 1}M", str(path)], check=True)
    table = f"label: dos\nstart=1MiB, size={first_mb}MiB, type=c\nsize={second_mb}MiB, type=c\n"
    subprocess.run(["sfdisk", "--quiet", str(path)], input=table, text=True, check=True)
    for part, seek in ((parts[0], 1), (parts[1], 1 + first_mb)):
        run("dd", f"if={part}", f"of={path}", "bs=1M", f"seek={seek}", "conv=notrunc,sparse", "status=none")
        part.unlink()
    return path
