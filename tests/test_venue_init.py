"""spit-arcade venue init: the venue's CA, the broker's certificate and configuration, a credential
per cabinet; run again, it adds cabinets and keeps what exists."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography import x509

from appliance.venue import init as venue_init
from appliance.venue.uplink import load_settings


def test_init_makes_a_broker_configuration_and_one_credential_per_cabinet(tmp_path: Path) -> None:
    venue = tmp_path / "venue"
    assert venue_init.main([str(venue), "--cabinet", "table-1", "--cabinet", "table-2", "--host", "bar.lan",
                            "--broker-dir", "/etc/mosquitto/venue"]) == 0
    conf = (venue / "mosquitto.conf").read_text()
    for line in ("allow_anonymous false", "require_certificate true", "use_identity_as_username true",
                 "listener 8883\\n", "cafile /etc/mosquitto/venue/ca.crt", "acl_file /etc/mosquitto/venue/acl",
                 "crlfile /etc/mosquitto/venue/crl.pem"):
        assert line.replace("\\n", "\n") in conf
    acl = (venue / "acl").read_text()
    assert "pattern write spit/venue/%u/#" in acl and "pattern read spit/venue/+/board" in acl
    ca = x509.load_pem_x509_certificate((venue / "ca.crt").read_bytes())
    for name in ("table-1", "table-2"):
        cert = x509.load_pem_x509_certificate((venue / "cabinets" / name / "cabinet.crt").read_bytes())
        assert cert.subject.rfc4514_string() == f"CN={name}"
        cert.verify_directly_issued_by(ca)
        assert (venue / "cabinets" / name / "cabinet.key").stat().st_mode & 0o077 == 0
        settings = load_settings(venue / "cabinets" / name / "venue.toml")
        assert settings is not None and (settings.cabinet, settings.broker, settings.port) == (name, "bar.lan", 8883)
        assert settings.key == venue / "cabinets" / name / "cabinet.key"  # beside the file, wherever it is
    crl = x509.load_pem_x509_crl((venue / "crl.pem").read_bytes())  # empty, signed by the CA
    assert len(crl) == 0 and crl.is_signature_valid(ca.public_key())
    broker = x509.load_pem_x509_certificate((venue / "broker.crt").read_bytes())
    names = broker.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["bar.lan"]


def test_init_again_adds_a_cabinet_and_keeps_the_rest(tmp_path: Path) -> None:
    venue = tmp_path / "venue"
    venue_init.init(venue, ["table-1"], ["bar.lan"])
    kept = (venue / "ca.crt", venue / "broker.crt", venue / "cabinets/table-1/cabinet.crt")
    before = {p: p.read_bytes() for p in kept}
    venue_init.init(venue, ["table-1", "table-3"], ["bar.lan"])
    assert {p: p.read_bytes() for p in before} == before
    assert (venue / "cabinets/table-3/cabinet.crt").exists()


@pytest.mark.parametrize("name", ["venue", "Table 1", "a/b"])
def test_a_cabinet_name_that_would_break_the_acl_is_refused(tmp_path: Path, name: str) -> None:
    assert venue_init.main([str(tmp_path / "v"), "--cabinet", name]) == 2
    assert not (tmp_path / "v" / "ca.key").exists()


def test_revoke_adds_the_cabinets_certificate_to_the_crl_and_keeps_the_others(tmp_path: Path, capsys) -> None:
    venue = tmp_path / "venue"
    venue_init.init(venue, ["table-1", "table-2", "table-3"], ["bar.lan"])
    ca = x509.load_pem_x509_certificate((venue / "ca.crt").read_bytes())

    def serial(name: str) -> int:
        return x509.load_pem_x509_certificate((venue / "cabinets" / name / "cabinet.crt").read_bytes()).serial_number

    from appliance.venue.view import main as venue_main

    assert venue_main(["revoke", str(venue), "table-2"]) == 0
    assert venue_main(["revoke", str(venue), "table-3"]) == 0
    assert venue_main(["revoke", str(venue), "table-2"]) == 0  # again: nothing changes
    crl = x509.load_pem_x509_crl((venue / "crl.pem").read_bytes())
    assert crl.is_signature_valid(ca.public_key())
    assert sorted(r.serial_number for r in crl) == sorted([serial("table-2"), serial("table-3")])
    assert crl.get_revoked_certificate_by_serial_number(serial("table-1")) is None
    said = capsys.readouterr().out
    assert "'table-2'" in said and "was already revoked" in said
    venue_init.init(venue, ["table-1", "table-4"], ["bar.lan"])  # init again keeps the CRL
    assert len(x509.load_pem_x509_crl((venue / "crl.pem").read_bytes())) == 2


@pytest.mark.parametrize("name", ["table-9", "Table 1"])
def test_revoking_a_cabinet_the_venue_does_not_have_is_refused(tmp_path: Path, name: str, capsys) -> None:
    from appliance.venue.view import main as venue_main

    venue_init.init(tmp_path / "venue", ["table-1"], ["bar.lan"])
    before = (tmp_path / "venue" / "crl.pem").read_bytes()
    assert venue_main(["revoke", str(tmp_path / "venue"), name]) == 2
    assert "spit-arcade venue revoke:" in capsys.readouterr().out
    assert (tmp_path / "venue" / "crl.pem").read_bytes() == before
