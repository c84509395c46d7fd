"""The glossaries (locales/<lang>/glossary.toml) are enforced: ``python -m ui.catalog check`` fails on a
forbidden variant, on a term left untranslated or translated otherwise, and on a second rendering
without a translator comment. Each is planted in a copy of the real catalog of each language."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from ui import catalog as catalogs
from ui.words import glossary
from ui.words.i18n import LANGUAGES, LOCALES, catalog_path

OTHER_LANGS = [lang for lang in LANGUAGES if lang != "en"]


@pytest.fixture(scope="module")
def template():
    return catalogs.source_catalog()


def copied(tmp_path: Path, lang: str) -> Path:
    """The language's catalog and glossary, copied to ``tmp_path`` in the same layout."""
    folder = tmp_path / lang / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(catalog_path(lang), folder / "messages.po")
    shutil.copy(glossary.glossary_path(LOCALES, lang), tmp_path / lang / "glossary.toml")
    return folder / "messages.po"


def edit(path: Path, lang: str, change) -> str:
    """Apply ``change(message)`` to the first message it accepts (returns True); the message's English."""
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    for message in catalog:
        if message.id and message.string and change(message):
            with path.open("wb") as f:
                write_po(f, catalog, width=100)
            return message.id
    raise AssertionError("no message to plant in")


def a_term(lang: str, with_forbidden: bool = False) -> glossary.Term:
    terms = glossary.load(glossary.glossary_path(LOCALES, lang))
    return next(t for t in terms if t.forbid or not with_forbidden)


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_the_real_catalog_keeps_its_glossary(lang, template):
    assert catalogs.check(lang, template).glossary == []


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_a_planted_forbidden_variant_is_caught(lang, template, tmp_path):
    path = copied(tmp_path, lang)
    term = a_term(lang, with_forbidden=True)
    edit(path, lang, lambda m: setattr(m, "string", m.string + " " + term.forbid[0]) is None)
    found = catalogs.check(lang, template, path).glossary
    assert len(found) == 1 and f"forbidden {term.forbid[0]!r}" in found[0], found


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_a_term_translated_otherwise_is_caught(lang, template, tmp_path):
    """A string whose English has the term loses every accepted rendering of it."""
    path = copied(tmp_path, lang)
    terms = glossary.load(glossary.glossary_path(LOCALES, lang))

    def strip(message) -> bool:
        for term in terms:
            if term.in_english(glossary.prose(message.id)) and not term.keep:
                text = message.string
                for form in term.use:
                    text = text.replace(form, "XYZ").replace(form.capitalize(), "XYZ")
                if text != message.string and not term.rendering(glossary.prose(text)):
                    message.string = text
                    return True
        return False

    edit(path, lang, strip)
    found = catalogs.check(lang, template, path).glossary
    assert len(found) == 1 and "is not rendered as" in found[0], found


def test_a_second_rendering_needs_a_translator_comment():
    term = glossary.Term(en=("weight", "weights"), use=("bobot", "berat"))
    entries = [("a", "the weights", "bobotnya", []), ("b", "a weight", "berat", [])]
    assert glossary.problems([term], entries) == [
        "b: 'weight' rendered as 'berat', elsewhere 'bobot'; say why in a translator comment (# glossary: ...)"]
    explained = [entries[0], ("b", "a weight", "berat", ["glossary: weight: 'berat' is the physical sense here"])]
    assert glossary.problems([term], explained) == []


def test_prose_leaves_out_code_fields_math_and_icons():
    term = glossary.Term(en=("softmax",), use=("소프트맥스",), keep=("softmax(",), forbid=("코잘",))
    assert glossary.problems([term], [("a", "`torch.softmax` of {softmax} and $softmax$", "`torch.softmax` {softmax}",
                                       [])]) == []
    assert glossary.problems([term], [("b", "softmax(x / √d)", "softmax(x / √d)", [])]) == []  # kept on purpose
    assert glossary.problems([term], [("c", "the softmax", "softmax", [])]) == [
        "c: 'softmax' is not rendered as '소프트맥스 / softmax('"]
    assert glossary.problems([term], [("d", "Open :material/softmax:", "열기 :material/softmax:", [])]) == []


def test_the_number_rule_flags_a_lone_number_with_a_point_where_the_language_writes_a_comma():
    entry = lambda text: ("label", "English", text, [])  # noqa: E731
    flagged = glossary.number_problems(",", [entry("ω(2, 2) = 1.8524: tự nó"), entry("p = 0.5 ở đây")])
    assert len(flagged) == 2 and "'1,8524'" in flagged[0] and "'0,5'" in flagged[1]
    kept = ["ω(2, 2) = 1,8524", "bagian 3.5.1 dan 3.3", "2.360.064 parameter", "vektor [0.4419, 0.6515]",
            "`torch.tensor(0.55)` di kode", "{p:.2f} sebagai field", "tensor([0.43, 0.15])"]
    assert glossary.number_problems(",", [entry(t) for t in kept]) == []
    assert glossary.number_problems(".", [entry("1.8524")]) == []  # Korean writes the point
    assert glossary.number_problems(",", [("l", "e", "1.8524", ["glossary: number, a version"])]) == []


@pytest.mark.parametrize("lang, mark", [("id", ","), ("vi", ","), ("ko", None)])
def test_the_glossaries_state_their_number_rule(lang, mark):
    assert glossary.decimal_mark(glossary.glossary_path(LOCALES, lang)) == mark
