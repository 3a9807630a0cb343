"""The players' language: English, German or Esperanto, through gettext catalogues.

Every text on screen goes through `_()` (words with `{name}` fields are formatted after
translation). The catalogues are gettext `.po` files in `locale/<lang>/LC_MESSAGES/spit_arcade.po`,
read at start by a small parser of our own (no `msgfmt` step, no compiled `.mo` files to keep in
step), into a `gettext.NullTranslations` subclass, so the rest is the standard `gettext` API.

    set_language("de"); _("press SPIT!")   # -> "SPIT! drücken"
"""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

LANGUAGES = ("en", "de", "eo")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "eo": "Esperanto"}
DOMAIN = "spit_arcade"
LOCALE_DIR = Path(__file__).parent / "locale"


class Catalogue(gettext.NullTranslations):
    """A `.po` catalogue read as it is: msgid -> msgstr (untranslated entries fall back to English)."""

    def __init__(self, messages: dict[str, str]) -> None:
        super().__init__()
        self.messages = messages

    def gettext(self, message: str) -> str:
        return self.messages.get(message) or message


def read_po(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a `.po` file (single and continued strings; no plurals or contexts)."""
    messages: dict[str, str] = {}
    field: str | None = None
    current: dict[str, str] = {}

    def flush() -> None:
        if current.get("msgid"):
            messages[current["msgid"]] = current.get("msgstr", "")

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgid "):
            flush()
            current = {}
            field, rest = "msgid", line[6:]
        elif line.startswith("msgstr "):
            field, rest = "msgstr", line[7:]
        elif line.startswith('"') and field is not None:
            rest = line
        else:
            raise ValueError(f"{path}: cannot read {raw!r}")
        current[field] = current.get(field, "") + ast.literal_eval(rest)
    flush()
    return messages


_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def catalogue(language: str) -> gettext.NullTranslations:
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == "en" or not path.exists():
        return gettext.NullTranslations()
    return Catalogue(read_po(path))


def set_language(language: str) -> None:
    global _current, _language
    _current = catalogue(language)
    _language = language


def language() -> str:
    return _language


def _(message: str) -> str:
    """`message` in the players' language."""
    return _current.gettext(message)
