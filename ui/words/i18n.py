"""The app's languages: gettext catalogs (``locales/<lang>/LC_MESSAGES/messages.po``), read with Babel.

English is the source language: every word the app shows is written in English, in the
content files (``pages/content/en/``) or, for error messages, as the template of an
:class:`attention.errors.Explained` error. ``python -m ui.catalog`` extracts them into
``locales/messages.pot`` and keeps the three catalogs in step with it.

A string missing from a catalog (or still empty, or marked fuzzy because its English
changed) shows in English: one string at a time, never a key or a blank.
Plain Python (no Streamlit), so it can be tested on its own.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import get_decimal_symbol

from attention.errors import Explained

__all__ = [
    "DEFAULT_LANG", "DOMAIN", "LANGUAGES", "LOCALES", "WALK_CONTEXT", "catalog_path", "decimal_comma", "explain",
    "fields_in_code", "in_convention",
    "fill", "load_catalog", "negotiate", "translate", "translations",
]

DEFAULT_LANG = "en"
# Each language named in itself, as the selector lists it.
LANGUAGES: dict[str, str] = {"en": "English", "id": "Bahasa Indonesia", "vi": "Tiếng Việt", "ko": "한국어"}
LOCALES = Path(__file__).resolve().parents[2] / "locales"
DOMAIN = "messages"
# The context of the bundled walkthrough's title and notes (the page itself is "walkthrough").
WALK_CONTEXT = "chapter walkthrough"


def catalog_path(lang: str, root: Path = LOCALES) -> Path:
    return root / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def load_catalog(path: Path, lang: str) -> gettext.GNUTranslations:
    """A ``.po`` file compiled in memory, as ``msgfmt`` would: fuzzy and empty entries left out."""
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    compiled = BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """``lang``'s catalog, read once per process; English, an unknown language or no file: identity."""
    path = catalog_path(lang)
    if lang == DEFAULT_LANG or lang not in LANGUAGES or not path.exists():
        return gettext.NullTranslations()
    return load_catalog(path, lang)


def translate(message: str, lang: str, context: str | None = None) -> str:
    """``message`` in ``lang``, or ``message`` itself where the catalog has no translation."""
    if not message or lang == DEFAULT_LANG:
        return message
    t = translations(lang)
    return t.pgettext(context, message) if context is not None else t.gettext(message)


def explain(error: BaseException, lang: str) -> str:
    """An error's message in ``lang``: templated errors are translated, others shown as they are."""
    if isinstance(error, Explained):
        # a field may itself be an explained error (a link whose matrix is bad): translate it too
        fields = {k: explain(v, lang) if isinstance(v, Explained) else v for k, v in error.fields.items()}
        return _format(translate(error.template, lang), fields, str(error), lang)
    return str(error)


def fill(template: str, fields: Mapping[str, Any], lang: str) -> str:
    """A template and its fields in ``lang``: the template translated, and any field that is
    itself English words (a step meaning inside another) translated and filled in as well."""
    if not fields:
        return translate(template, lang)
    inner = {k: _format(translate(v, lang), fields, v, lang) if isinstance(v, str) else v for k, v in fields.items()}
    return _format(translate(template, lang), inner, template.format(**fields), lang)


def _format(template: str, fields: Mapping[str, Any], fallback: str, lang: str = DEFAULT_LANG) -> str:
    """The template filled; in a language that writes a decimal comma, its number fields in that convention (outside
    `code`), whoever formats them: "1/(1-p) = 2" and "is 99,5" beside prose that writes 0,5."""
    if decimal_comma(lang):
        fields = reader_fields(template, fields)
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):  # a translation that lost a field: say it in English
        return fallback


class ReaderNumber:
    """A number field that the template formats itself (``{expected:.2f}``, ``{scale:g}``), written with the
    reader's decimal comma once formatted: "0,50" beside prose that writes 0,5."""

    def __init__(self, value: float | int) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return str(in_convention(format(self.value, spec), True))

    def __str__(self) -> str:
        return format(self)

    def __repr__(self) -> str:  # a {field!r}
        return str(in_convention(repr(self.value), True))


def reader_fields(template: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """A template's fields for a reader who writes a decimal comma: a number ("0.9544", 0.5, 2360064) in that
    convention, except in a `code span`, where it stays as Python writes it."""
    in_code = fields_in_code(template)
    return {name: value if name in in_code else _reader_value(value) for name, value in fields.items()}


def _reader_value(value: Any) -> Any:
    if isinstance(value, float | int) and not isinstance(value, bool):
        return ReaderNumber(value)
    return in_convention(value, True)


@cache
def decimal_comma(lang: str) -> bool:
    """Whether ``lang`` writes 0,5 for 0.5 (Indonesian and Vietnamese do), from Babel's locale data (read once
    per language: every string of a run asks)."""
    return get_decimal_symbol(lang) == ","


_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)")  # 2,360,064 / 0.9544 / 1,024.5
_CODE_SPAN = re.compile(r"`[^`]*`")


def in_convention(value: object, decimal_comma: bool) -> object:
    """A number shown in the reader's convention: where the language writes a decimal comma, "0.9544"
    reads "0,9544" and "2,360,064" reads "2.360.064". Only a string that is one number changes: a
    shape, a list, a printed tensor or a word stays as it is (a number a content template formats itself, such as
    ``{p:.2f}``, is converted once formatted: ui/words/content.py)."""
    if decimal_comma and isinstance(value, str) and _PLAIN_NUMBER.fullmatch(value):
        return value.translate(str.maketrans(",.", ".,"))
    return value


def fields_in_code(template: str) -> set[str]:
    """The ``{fields}`` of a template that stand inside a `code span` (shown as Python writes them)."""
    return {name for span in _CODE_SPAN.findall(template) for name in re.findall(r"(?<!\{)\{(\w+)", span)}


def negotiate(locale: str | None) -> str | None:
    """The app language for a browser locale such as ``"ko-KR"`` or ``"vi"``, if it has one."""
    if not locale:
        return None
    primary = locale.replace("_", "-").split("-")[0].lower()
    if primary == "in":  # the old ISO code some systems still send for Indonesian
        primary = "id"
    return primary if primary in LANGUAGES else None
