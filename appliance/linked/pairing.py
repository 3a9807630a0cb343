"""The pairing's secret: what lets a linked cabinet take a hello from the other cabinet's new session
or new address (a restart, a new port) and from nobody else.

At the first pairing each side says a random nonce in its hello (`secrets`); both then hold the
pairing's secret, `combine(leader's nonce, caller's nonce)` keyed by the link word's key (wire.py:
with no word a fixed key, so then the secret is only as hidden as the two first hellos were). Every
later hello carries a proof, an HMAC under the secret over the sender's role, session and nonce; once
paired, a hello of a new session or from a new address is taken only if its proof holds (peer.py).
Every other datagram between the two is tagged with the *datagram key* (`datagram_key`), derived
from the secret and the link word's key (an HMAC under the secret of a label and the word's key: the
secret itself is never a second key), so a stranger who did not see the two first hellos can forge
nothing on the link: no press, no acknowledgement, no ping, no goodbye (wire.py).

The secret is kept where the linked game's journals are (`FILE` in the journal directory, written
atomically, readable by the game's user alone), so a cabinet that comes back from a power cut proves
it in its first hello, and the other takes it back. A cabinet that comes back with a linked game to
resume (an unfinished linked journal there) is *bound* from its start: it takes only a hello that
proves the kept secret, so a stranger cannot take the game it resumes either; one with no game to
resume takes a fresh pairing (a new secret) from any cabinet whose hello fits, as at the first.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
from pathlib import Path

FILE = "linked-pairing.json"
NONCE = 16  # bytes
PROOF = 16  # bytes of the HMAC kept in a hello (as hex)


def nonce() -> bytes:
    import secrets

    return secrets.token_bytes(NONCE)


def combine(leader_nonce: bytes, caller_nonce: bytes, key: bytes) -> bytes:
    """The pairing's secret from the two first hellos' nonces (the leader's first), under the link key."""
    return hmac.digest(key, b"spit-link pairing\0" + leader_nonce + caller_nonce, hashlib.sha256)


DATAGRAMS = b"spit-arcade link datagrams v3\0"  # the datagram key's label (wire version 3)


def datagram_key(secret: bytes, word_key: bytes) -> bytes:
    """The key every datagram but the hello is tagged with once paired: both the pairing's secret and
    the link word's key (wire.key) must be held to make it."""
    return hmac.digest(secret, DATAGRAMS + word_key, hashlib.sha256)


def proof(secret: bytes, leader: bool, session: int, their_nonce: bytes) -> str:
    """A hello's proof that its sender holds `secret`: bound to the sender's role (a hello reflected
    back to its sender does not prove it), its session and its nonce."""
    data = b"spit-link hello\0" + bytes([leader]) + (session & 0xFFFFFFFF).to_bytes(4, "big") + their_nonce
    return hmac.digest(secret, data, hashlib.sha256)[:PROOF].hex()


def proves(secret: bytes | None, leader: bool, session: int, their_nonce: bytes | None, said: object) -> bool:
    if secret is None or their_nonce is None or not isinstance(said, str):
        return False
    return hmac.compare_digest(proof(secret, leader, session, their_nonce), said)


def read_nonce(value: object) -> bytes | None:
    """A hello's nonce (hex), or None if it has none of the right length."""
    if not isinstance(value, str) or len(value) != 2 * NONCE:
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:
        return None


def load(directory: Path | None) -> bytes | None:
    """The secret kept in `directory` (None: none kept, or unreadable)."""
    if directory is None:
        return None
    try:
        body = json.loads((directory / FILE).read_text(encoding="utf-8"))
        secret = bytes.fromhex(body["secret"]) if isinstance(body, dict) and body.get("v") == 1 else b""
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return secret if len(secret) == 32 else None


def save(directory: Path | None, secret: bytes) -> None:
    """Keep `secret` in `directory` (written whole or not at all: a power cut leaves the old one)."""
    if directory is None:
        return
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / FILE
    part = path.with_name(path.name + ".part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, json.dumps({"v": 1, "secret": secret.hex()}).encode() + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(part, path)
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def resuming(directory: Path | None) -> bool:
    """Is there a linked game to resume in `directory` (an unfinished linked journal)?"""
    return directory is not None and unfinished_linked(directory) is not None


def unfinished_linked(directory: Path) -> Path | None:
    """The newest journal in `directory` if it is a linked game a crash or a power cut cut off."""
    from appliance.journal import newest_unfinished, read_journal

    path = newest_unfinished(directory)
    if path is None:
        return None
    try:
        lines, _ = read_journal(path)
        setup = json.loads(lines[0]).get("setup", {}) if lines else {}
    except (OSError, ValueError, AttributeError):
        return None
    return path if isinstance(setup, dict) and isinstance(setup.get("linked"), dict) else None
