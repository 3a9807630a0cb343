"""`spit-arcade venue init DIR --cabinet NAME ...`: the venue's certificates and the broker's files.

Made with the `cryptography` package (no crypto of our own), into DIR:

- `ca.crt`, `ca.key`: the venue's own certificate authority (the key stays with the operator);
- `broker.crt`, `broker.key`: the broker's certificate, for the names and addresses it is reached at;
- `mosquitto.conf`, `acl`: the broker's configuration (systemd/venue/mosquitto.conf.in and
  systemd/venue/acl in the repository), TLS only, a client certificate required, anonymous refused;
- `cabinets/<name>/`: one per cabinet, copied onto that cabinet as /etc/spit-arcade/venue/:
  `ca.crt`, `cabinet.crt`, `cabinet.key` (its one credential: a certificate whose common name is its
  name, which the broker takes as its user name) and `venue.toml` (its `[venue]` section);
- `view/`: the operator's view's certificate (common name "venue": reads every cabinet's topics);
- `crl.pem`: the certificates revoked (`spit-arcade venue revoke DIR NAME`), empty at first, signed by
  the CA; the broker refuses a certificate named in it (`crlfile`).

Run it again with more `--cabinet`s to add cabinets: the CA and the existing credentials are kept.
"""

from __future__ import annotations

import argparse
import datetime as dt
import ipaddress
import os
from pathlib import Path

from appliance.venue.messages import check_name

VIEW = "venue"  # the operator's view's user name: no cabinet may have it
TEMPLATES = Path(__file__).resolve().parents[2] / "systemd" / "venue"
DAYS = 3650


def _need_cryptography() -> None:
    try:
        import cryptography  # noqa: F401
    except ImportError:
        raise SystemExit("spit-arcade venue init needs the cryptography package: "
                         "pip install 'spit-arcade[venue]' (Debian: apt-get install python3-cryptography)") from None


def _write(path: Path, data: bytes, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.chmod(path, mode)


def new_key() -> object:
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())


def key_pem(key: object) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,  # type: ignore[attr-defined]
                             serialization.NoEncryption())


def cert_pem(cert: object) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return cert.public_bytes(serialization.Encoding.PEM)  # type: ignore[attr-defined]


def make_ca(name: str = "Spit Arcade venue CA", days: int = DAYS) -> tuple[object, object]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    key = new_key()
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
        .public_key(key.public_key())  # type: ignore[attr-defined]
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1)).not_valid_after(now + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                     content_commitment=False, key_encipherment=False, data_encipherment=False,
                                     key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
        .sign(key, hashes.SHA256())  # type: ignore[arg-type]
    )
    return key, cert


def issue(ca_key: object, ca_cert: object, common_name: str, *, server_names: list[str] | None = None,
          not_before: dt.datetime | None = None, not_after: dt.datetime | None = None) -> tuple[object, object]:
    """A key and a certificate signed by the CA: a client's (common name = its user name) or, with
    `server_names` (host names and IP addresses), the broker's."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = new_key()
    now = dt.datetime.now(dt.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)]))
        .issuer_name(ca_cert.subject)  # type: ignore[attr-defined]
        .public_key(key.public_key())  # type: ignore[attr-defined]
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before or now - dt.timedelta(hours=1))
        .not_valid_after(not_after or now + dt.timedelta(days=DAYS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
    )
    if server_names:
        alt: list[x509.GeneralName] = []
        for name in server_names:
            try:
                alt.append(x509.IPAddress(ipaddress.ip_address(name)))
            except ValueError:
                alt.append(x509.DNSName(name))
        builder = builder.add_extension(x509.SubjectAlternativeName(alt), critical=False)
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    else:
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
    return key, builder.sign(ca_key, hashes.SHA256())  # type: ignore[arg-type]


def load_ca(directory: Path) -> tuple[object, object]:
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key((directory / "ca.key").read_bytes(), password=None)
    return key, x509.load_pem_x509_certificate((directory / "ca.crt").read_bytes())


def make_crl(ca_key: object, ca_cert: object, serials: list[int], days: int = DAYS) -> object:
    """A CRL signed by the CA naming `serials` (empty: none revoked). Its next update is `days` away:
    OpenSSL refuses every client once a CRL has expired, so it is made to last as the CA does."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    now = dt.datetime.now(dt.UTC)
    builder = (x509.CertificateRevocationListBuilder().issuer_name(ca_cert.subject)  # type: ignore[attr-defined]
               .last_update(now - dt.timedelta(hours=1)).next_update(now + dt.timedelta(days=days)))
    for serial in sorted(set(serials)):
        builder = builder.add_revoked_certificate(
            x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(now).build())
    return builder.sign(ca_key, hashes.SHA256())  # type: ignore[arg-type]


def revoked_serials(directory: Path) -> list[int]:
    """The serial numbers in the venue's CRL ([] when it has none yet)."""
    from cryptography import x509

    if not (directory / "crl.pem").exists():
        return []
    return [entry.serial_number for entry in x509.load_pem_x509_crl((directory / "crl.pem").read_bytes())]


def crl_pem(crl: object) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return crl.public_bytes(serialization.Encoding.PEM)  # type: ignore[attr-defined]


def revoke(directory: Path, name: str) -> str:
    """Add cabinet `name`'s certificate to the venue's CRL (kept: revoking it again changes nothing);
    what was done, in words. The broker refuses it once it reads the CRL again (restart or SIGHUP)."""
    _need_cryptography()
    from cryptography import x509

    check_name(name)
    where = directory / ("view" if name == VIEW else f"cabinets/{name}")
    if not (directory / "ca.key").exists():
        raise ValueError(f"{directory} is not a venue made by spit-arcade venue init (no ca.key)")
    if not (where / "cabinet.crt").exists():
        raise ValueError(f"no cabinet {name!r} in {directory} (no {where / 'cabinet.crt'})")
    serial = x509.load_pem_x509_certificate((where / "cabinet.crt").read_bytes()).serial_number
    serials = revoked_serials(directory)
    if serial in serials:
        return f"{name!r} (serial {serial:x}) was already revoked in {directory / 'crl.pem'}"
    ca_key, ca_cert = load_ca(directory)
    _write(directory / "crl.pem", crl_pem(make_crl(ca_key, ca_cert, [*serials, serial])))
    return f"{name!r} (serial {serial:x}) revoked: {directory / 'crl.pem'} now names {len(serials) + 1}"


def broker_config(directory: Path, port: int = 8883, bind: str = "", log: str = "syslog",
                  persistence: bool = True, user: str = "mosquitto") -> str:
    text = (TEMPLATES / "mosquitto.conf.in").read_text(encoding="utf-8")
    for key, value in (("@PORT@", str(port)), ("@BIND@", bind), ("@DIR@", str(directory.resolve())),
                       ("@LOG@", log), ("@PERSISTENCE@", "true" if persistence else "false"),
                       ("@USER@", user)):
        text = text.replace(key, value)
    return text.replace(f"listener {port} \n", f"listener {port}\n")


def cabinet_config(name: str, broker: str, port: int) -> str:
    return ("# The venue uplink's settings (spit-arcade uplink), made by spit-arcade venue init.\n"
            "# ca, cert and key: beside this file (/etc/spit-arcade/venue/ on the cabinet).\n"
            f"[venue]\nbroker = \"{broker}\"\nport = {port}\ncabinet = \"{name}\"\n"
            "ca = \"ca.crt\"\ncert = \"cabinet.crt\"\nkey = \"cabinet.key\"\n")


def init(directory: Path, cabinets: list[str], hosts: list[str], port: int = 8883, bind: str = "",
         log: str = "syslog", persistence: bool = True, user: str = "mosquitto", at: Path | None = None) -> list[str]:
    """Make (or add to) a venue in `directory`; what was made, one line each."""
    _need_cryptography()
    if not (TEMPLATES / "mosquitto.conf.in").exists():
        raise ValueError(f"the broker's templates are not at {TEMPLATES}: run venue init from a clone of the "
                         "repository")
    for name in cabinets:
        check_name(name)
        if name == VIEW:
            raise ValueError(f"{VIEW!r} is the operator's view's name: a cabinet needs another")
    directory.mkdir(parents=True, exist_ok=True)
    made: list[str] = []
    if (directory / "ca.key").exists():
        ca_key, ca_cert = load_ca(directory)
    else:
        ca_key, ca_cert = make_ca()
        _write(directory / "ca.key", key_pem(ca_key), 0o600)
        _write(directory / "ca.crt", cert_pem(ca_cert))
        made.append(f"{directory / 'ca.crt'}: the venue's CA (keep ca.key off the broker and the cabinets)")
    if not (directory / "broker.crt").exists():
        key, cert = issue(ca_key, ca_cert, hosts[0], server_names=hosts)
        _write(directory / "broker.key", key_pem(key), 0o600)
        _write(directory / "broker.crt", cert_pem(cert))
        made.append(f"{directory / 'broker.crt'}: the broker's certificate for {', '.join(hosts)}")
    if not (directory / "crl.pem").exists():
        _write(directory / "crl.pem", crl_pem(make_crl(ca_key, ca_cert, [])))
        made.append(f"{directory / 'crl.pem'}: the certificates revoked (none yet; spit-arcade venue revoke)")
    _write(directory / "mosquitto.conf", broker_config(at or directory, port, bind, log, persistence, user).encode())
    _write(directory / "acl", (TEMPLATES / "acl").read_bytes())
    (directory / "data").mkdir(exist_ok=True)
    made.append(f"{directory / 'mosquitto.conf'}, {directory / 'acl'}: the broker's configuration")
    for name, where in [(VIEW, directory / "view")] + [(c, directory / "cabinets" / c) for c in cabinets]:
        if (where / "cabinet.crt").exists():
            continue
        key, cert = issue(ca_key, ca_cert, name)
        _write(where / "cabinet.key", key_pem(key), 0o600)
        _write(where / "cabinet.crt", cert_pem(cert))
        _write(where / "ca.crt", cert_pem(ca_cert))
        if name != VIEW:
            _write(where / "venue.toml", cabinet_config(name, hosts[0], port).encode())
        made.append(f"{where}/: {'the view' if name == VIEW else 'cabinet ' + repr(name)}'s credential")
    return made


def revoke_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="spit-arcade venue revoke", description="Revoke a cabinet's certificate: the broker refuses it "
        "once it has read the venue's CRL again (copy crl.pem to the broker, then restart it or send it SIGHUP).")
    parser.add_argument("directory", type=Path, help="the venue's directory (from spit-arcade venue init)")
    parser.add_argument("name", help="the cabinet's name (or 'venue': the operator's view's credential)")
    args = parser.parse_args(argv)
    try:
        print(revoke(args.directory, args.name))
    except ValueError as error:
        print(f"spit-arcade venue revoke: {error}")
        return 2
    print(f"Next: copy {args.directory / 'crl.pem'} to the broker's directory and reload it "
          "(sudo systemctl reload-or-restart mosquitto; systemd/README.md, 'A venue of cabinets').")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade venue init", description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--cabinet", action="append", default=[], metavar="NAME",
                        help="a cabinet's name (a-z, 0-9, '-'), once per cabinet: table-1, table-2, ...")
    parser.add_argument("--host", action="append", default=[], metavar="NAME_OR_ADDRESS",
                        help="a name or address the cabinets reach the broker at (first: the one they use); "
                             "default: venue.local")
    parser.add_argument("--port", type=int, default=8883)
    parser.add_argument("--broker-dir", type=Path, default=None, metavar="DIR",
                        help="where the broker's host keeps these files (mosquitto.conf names them there; "
                             "default: DIRECTORY itself), e.g. /etc/mosquitto/venue")
    args = parser.parse_args(argv)
    try:
        for line in init(args.directory, args.cabinet, args.host or ["venue.local"], args.port,
                         at=args.broker_dir):
            print(line)
    except ValueError as error:
        print(f"spit-arcade venue init: {error}")
        return 2
    print("Next: copy each cabinets/<name>/ onto its cabinet as /etc/spit-arcade/venue/ "
          "(systemd/README.md, 'A venue of cabinets').")
    return 0
