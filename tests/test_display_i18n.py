"""The language catalogues: gettext .po files read as they are; every language switchable."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.display.i18n import LANGUAGES, _, catalogue, language, read_po, set_language


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def test_a_po_file_is_read_with_its_continued_strings(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text(
        '# a comment\nmsgid ""\nmsgstr "Language: de\\n"\n\nmsgid "two "\n"lines"\nmsgstr "zwei "\n"Zeilen"\n\n'
        'msgid "untranslated"\nmsgstr ""\n',
        encoding="utf-8",
    )
    assert read_po(po) == {"two lines": "zwei Zeilen", "untranslated": ""}


def test_untranslated_words_fall_back_to_english() -> None:
    set_language("de")
    assert _("press SPIT!") == "SPIT! drücken"
    assert _("no such text anywhere") == "no such text anywhere"
    assert language() == "de"


def test_every_language_loads_and_a_wrong_one_is_refused() -> None:
    for code in LANGUAGES:
        catalogue(code)
    with pytest.raises(ValueError, match="language"):
        set_language("xx")
