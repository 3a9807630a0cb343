from pathlib import Path

from appliance.shared.usb_stick import STICK_ENV, bundles_on, export_folder, stick_path


def test_a_named_folder_is_the_stick(tmp_path: Path) -> None:
    assert stick_path({STICK_ENV: str(tmp_path)}) == tmp_path


def test_a_named_folder_that_is_gone_is_no_stick(tmp_path: Path) -> None:
    assert stick_path({STICK_ENV: str(tmp_path / "pulled")}) is None


def test_without_a_name_only_a_mount_point_is_a_stick(tmp_path: Path) -> None:
    assert stick_path({}, mount=tmp_path / "stick") is None  # a folder that is not mounted: no stick
    assert stick_path({}, mount=Path("/")) == Path("/")  # the root is always a mount point


def test_bundles_are_the_top_levels_raucb_files_by_name(tmp_path: Path) -> None:
    for name in ("b-0.2.0.raucb", "a-0.3.0.raucb", "notes.txt"):
        (tmp_path / name).write_text("x")
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "c.raucb").write_text("x")
    (tmp_path / "folder.raucb").mkdir()
    assert [p.name for p in bundles_on(tmp_path)] == ["a-0.3.0.raucb", "b-0.2.0.raucb"]
    assert bundles_on(tmp_path / "pulled") == []
    assert export_folder(tmp_path) == tmp_path / "spit-arcade"
