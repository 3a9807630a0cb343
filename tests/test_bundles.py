"""Signed update bundles (systemd/image/make-bundle.sh, RAUC from Debian's packages): a bundle of a
small root file system signed with the development key is accepted against the development CA; an
unsigned one, a tampered one (one byte changed) and one signed by another key are refused, each with
RAUC's own words for why. `.ci/run` installs rauc and squashfs-tools where they are missing."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

IMAGE = Path(__file__).resolve().parents[1] / "systemd" / "image"
MAKE = IMAGE / "make-bundle.sh"
CA = IMAGE / "dev-keys" / "ca.cert.pem"
TOOLS = ("rauc", "mksquashfs", "mkfs.ext4", "openssl")


@pytest.fixture(scope="module", autouse=True)
def tools() -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        why = f"needs {', '.join(missing)} (apt-get install rauc squashfs-tools e2fsprogs openssl)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)


@pytest.fixture(scope="module")
def rootfs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An 8 MiB ext4 root file system with a few files (not compressible to nothing: the bundle's
    squashfs must be larger than one 4 KiB block)."""
    work = tmp_path_factory.mktemp("rootfs")
    tree = work / "tree"
    (tree / "etc").mkdir(parents=True)
    (tree / "etc" / "os-release").write_text('NAME="Spit Arcade test root"\n')
    (tree / "noise").write_bytes(random.Random(23).randbytes(300_000))
    image = work / "root.ext4"
    subprocess.run(["mkfs.ext4", "-q", "-L", "spit-root", "-d", str(tree), str(image), "8M"], check=True)
    return image


def make(rootfs: Path, out: Path, *extra: str, version: str = "0.2.0") -> subprocess.CompletedProcess[str]:
    args = ["--rootfs", str(rootfs), "--arch", "amd64", "--version", version, "--out", str(out), *extra]
    return subprocess.run(["bash", str(MAKE), *args], capture_output=True, text=True)


def rauc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["rauc", *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def bundle(rootfs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "spit-arcade-0.2.0-amd64.raucb"
    manifest = out.parent / "manifest.json"
    manifest.write_text('{"version": "0.2.0", "arch": "amd64"}\n')
    done = make(rootfs, out, "--manifest", str(manifest))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out)
    assert "DEVELOPMENT key" in done.stderr  # said plainly, every time
    return out


def flipped(bundle: Path, at: int, to: Path) -> Path:
    data = bytearray(bundle.read_bytes())
    data[at] ^= 0x01
    to.write_bytes(bytes(data))
    return to


def test_a_bundle_signed_with_the_development_key_is_accepted(bundle: Path, tmp_path: Path) -> None:
    info = rauc("info", f"--keyring={CA}", str(bundle))
    assert info.returncode == 0, info.stderr
    assert "Compatible: \t'spit-arcade-amd64'" in info.stdout
    assert "Version:    \t'0.2.0'" in info.stdout
    assert "Bundle Format: \tverity" in info.stdout
    assert "CN = Spit Arcade DEVELOPMENT signer - not for the field" in info.stdout
    extracted = tmp_path / "out"
    done = rauc("extract", f"--keyring={CA}", str(bundle), str(extracted))  # signature and every block
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in extracted.iterdir()) == ["manifest.raucm", "rootfs.ext4", "spit-manifest.json"]
    assert '"version": "0.2.0"' in (extracted / "spit-manifest.json").read_text()


def test_an_unsigned_bundle_is_refused(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "manifest.raucm").write_text("[update]\ncompatible=spit-arcade-amd64\nversion=9.9.9\n")
    (tree / "rootfs.ext4").write_bytes(random.Random(5).randbytes(100_000))
    unsigned = tmp_path / "unsigned.raucb"
    subprocess.run(["mksquashfs", str(tree), str(unsigned), "-quiet", "-all-root", "-noappend"], check=True)
    info = rauc("info", f"--keyring={CA}", str(unsigned))
    assert info.returncode != 0
    assert "Signature size is 0" in info.stderr


def test_a_bundle_with_one_byte_changed_is_refused(bundle: Path, tmp_path: Path) -> None:
    size = bundle.stat().st_size
    # In the payload (the squashfs, which holds the root file system): the signature covers the
    # verity root hash, and RAUC checks every block against it before it uses one.
    payload = flipped(bundle, size // 3, tmp_path / "payload.raucb")
    done = rauc("extract", f"--keyring={CA}", str(payload), str(tmp_path / "out"))
    assert done.returncode != 0
    assert "bundle payload is corrupted" in done.stderr
    assert not (tmp_path / "out").exists()
    # In the signature itself (the bundle's last bytes but the 8 that say its size).
    signature = flipped(bundle, size - 200, tmp_path / "signature.raucb")
    info = rauc("info", f"--keyring={CA}", str(signature))
    assert info.returncode != 0
    assert "signature" in info.stderr.lower()


def test_a_bundle_signed_by_another_key_is_refused(rootfs: Path, tmp_path: Path) -> None:
    other_ca, other_key = tmp_path / "other-ca.pem", tmp_path / "other-ca.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30",
         "-subj", "/O=Someone Else/CN=not the cabinet's key", "-keyout", str(other_key), "-out", str(other_ca)],
        check=True, capture_output=True,
    )  # fmt: skip
    out = tmp_path / "other.raucb"
    done = make(rootfs, out, "--cert", str(other_ca), "--key", str(other_key), "--keyring", str(other_ca))
    assert done.returncode == 0, done.stderr
    assert "DEVELOPMENT key" not in done.stderr
    assert rauc("info", f"--keyring={other_ca}", str(out)).returncode == 0  # good, for its own keyring
    info = rauc("info", f"--keyring={CA}", str(out))
    assert info.returncode != 0
    assert "signature verification failed: Verify error" in info.stderr


def test_make_bundle_refuses_what_it_cannot_make(rootfs: Path, tmp_path: Path) -> None:
    for extra, said in (
        (("--arch", "riscv64"), "--arch is amd64 or arm64"),
        (("--version", "1.0 beta"), "is not a version"),
    ):
        args = ["--rootfs", str(rootfs), "--arch", "amd64", "--version", "1.0.0", "--out", str(tmp_path / "x.raucb")]
        for key, value in zip(extra[::2], extra[1::2], strict=True):
            args[args.index(key) + 1] = value
        done = subprocess.run(["bash", str(MAKE), *args], capture_output=True, text=True)
        assert done.returncode == 2 and said in done.stderr, done.stderr
