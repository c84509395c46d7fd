"""The translated teaching guides come from the English guide through catalogs (ui/words/guide.py), and the app's
own catalog check holds them to the same rules as the app's words.

- Every block of docs/teaching.md is translated, and not fuzzy, in every language; a section added in English
  shows up as untranslated, and a fuzzy paragraph counts as untranslated too.
- No guide uses a word its language's glossary forbids (the words a review found in the hand-written guides are
  planted and caught).
- A UI name the English guide quotes (bold, italics, quotes) that is an app message is written as the app's msgstr.
- docs/teaching.<lang>.md is what the English guide and its catalog generate.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import write_po

from ui import catalog as catalogs
from ui.words import glossary, guide
from ui.words.i18n import LOCALES, catalog_path

LANGS = guide.TRANSLATED

# Words the hand-written guides used where the app and its glossary say otherwise: each must be caught if it returns.
FORBIDDEN = {"id": ["pengajar", "peramban", "matikan"], "vi": ["chuẩn hóa", "hình dạng"],
             "ko": ["프로젝션", "따라가기", "알려진 실수", "조작 도구"]}


@pytest.fixture(scope="module")
def template():
    return guide.template()


@pytest.fixture(scope="module")
def names():
    return {lang: guide.app_names(guide.read(lang, catalog_path(lang))) for lang in LANGS}


def terms(lang: str) -> Path:
    return glossary.glossary_path(LOCALES, lang)


def copy_catalog(tmp_path: Path, lang: str, change=None) -> Path:
    """A copy of the language's guide catalog, with ``change(catalog)`` applied."""
    path = tmp_path / f"teaching.{lang}.po"
    shutil.copy(guide.po_path(lang), path)
    if change:
        catalog = guide.read(lang, path)
        change(catalog)
        with path.open("wb") as f:
            write_po(f, catalog, width=100)
    return path


def message_with(catalog, english: str):
    return next(m for m in catalog if m.id and english in m.id)


# ----- every paragraph, translated ---------------------------------------------------------------------------------


def test_the_guide_is_cut_into_its_blocks(template):
    ids = [m.id for m in template if m.id]
    assert len(ids) >= 80
    for heading in ("Lecture mode", "Spotlight: a student's exploration on the projector", "Check yourself",
                    "Links, import and export", "If a replica dies mid-lecture"):
        assert heading in ids
    assert any(i.startswith("title = ") for i in ids), "the walkthrough's example file is a message too"


@pytest.mark.parametrize("lang", LANGS)
def test_every_paragraph_is_translated_and_none_is_fuzzy(lang, template):
    problems = catalogs.check(lang, template, guide.po_path(lang), terms(lang))
    assert (problems.missing, problems.stale, problems.fields) == ([], [], [])


@pytest.mark.parametrize("lang", LANGS)
def test_a_section_added_in_english_shows_up_as_untranslated(lang, tmp_path):
    longer = tmp_path / "teaching.md"
    longer.write_text(guide.GUIDE.read_text(encoding="utf-8")
                      + "\n## Office hours\n\nBring your laptop; the room stays open an hour after the lecture.\n",
                      encoding="utf-8")
    problems = catalogs.check(lang, guide.template(longer), guide.po_path(lang), terms(lang))
    assert set(problems.missing) == {"'Office hours'",
                                     "'Bring your laptop; the room stays open an hour after the lecture.'"}
    assert "Office hours" in guide.render(guide.read(lang), longer), "until translated, it shows in English"


@pytest.mark.parametrize("lang", LANGS)
def test_a_fuzzy_paragraph_counts_as_untranslated_and_is_not_published(lang, template, tmp_path):
    def blur(catalog):
        message_with(catalog, "Only your own two windows.").flags.add("fuzzy")

    path = copy_catalog(tmp_path, lang, blur)
    problems = catalogs.check(lang, template, path, terms(lang))
    assert len(problems.missing) == 1 and "Who can drive." in problems.missing[0]
    assert "**Who can drive.** Only your own two windows." in guide.render(guide.read(lang, path))


# ----- the glossary ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_no_guide_breaks_its_glossary(lang, template):
    assert catalogs.check(lang, template, guide.po_path(lang), terms(lang)).glossary == []


@pytest.mark.parametrize(("lang", "word"), [(lang, word) for lang, words in FORBIDDEN.items() for word in words])
def test_a_forbidden_word_in_a_guide_is_caught(lang, word, template, tmp_path):
    def plant(catalog):
        message = message_with(catalog, "Only your own two windows.")
        message.string += f" {word}"

    problems = catalogs.check(lang, template, copy_catalog(tmp_path, lang, plant), terms(lang))
    assert len(problems.glossary) == 1 and f"forbidden {word!r}" in problems.glossary[0]


def test_the_catalog_command_checks_the_guides_too(capsys):
    assert catalogs.main(["check", "ko"]) == 0
    assert "ko guide: 0 missing, 0 stale, 0 with other {fields}, 0 against the glossary, 0 other" in (
        capsys.readouterr().out)


def test_the_catalog_command_fails_on_a_broken_guide(capsys, tmp_path, monkeypatch):
    def plant(catalog):
        message_with(catalog, "Only your own two windows.").string += " 프로젝션"

    copy_catalog(tmp_path, "ko", plant)
    monkeypatch.setattr(guide, "CATALOGS", tmp_path)
    assert catalogs.main(["check", "ko"]) == 1
    out = capsys.readouterr().out
    assert "ko: 0 missing" in out and "ko guide: 0 missing, 0 stale, 0 with other {fields}, 1 against the glossary, " \
        "1 other" in out, out  # the other: docs/teaching.ko.md no longer what the catalog makes


# ----- the UI names ------------------------------------------------------------------------------------------------


def test_a_quoted_name_is_matched_to_the_apps_message_fields_and_all():
    names = guide.AppNames([("Step {k} of {n}", "{n}단계 중 {k}단계"), ("Following · {line}", "따라가는 중 · {line}"),
                            ("Rejoin the lecture", "강의로 돌아가기"), ("{a}: {b}", "{a}: {b}")])
    assert names.translations("Step k of n") == {"n단계 중 k단계"}
    assert names.translations("Following · Step 3 of 33") == {"따라가는 중 · 33단계 중 3단계"}
    assert names.translations("Rejoin the lecture.") == {"강의로 돌아가기"}
    assert names.translations("Exploring and rejoining") == set()
    assert names.translations("Limits: safety") == set(), "a template of fields alone is no name"
    assert guide.ui_names('A **Rejoin the\nlecture** link, *Details* and "Step k of n" or “Check yourself”') == [
        "Rejoin the lecture", "Details", "Step k of n", "Check yourself"]


@pytest.mark.parametrize("lang", LANGS)
def test_ui_names_in_the_guide_are_written_as_the_app_writes_them(lang, template, names):
    quoted = [(m.id, n) for m in template if m.id for n in guide.ui_names(m.id) if names[lang].translations(n)]
    assert len(quoted) >= 40, "the guide quotes the app's buttons, toggles and lines"
    assert {"Rejoin the lecture", "Step k of n", "Step through", "Lesson record (CSV)"} <= {n for _, n in quoted}
    assert guide.name_problems(guide.read(lang), names[lang]) == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_ui_name_written_otherwise_is_caught(lang, names, tmp_path):
    wanted = sorted(names[lang].translations("Rejoin the lecture"))[0]

    def rename(catalog):
        message = message_with(catalog, "**Rejoin the lecture** is a link back")
        message.string = message.string.replace(wanted, "Rejoin the lecture")

    catalog = guide.read(lang, copy_catalog(tmp_path, lang, rename))
    found = guide.name_problems(catalog, names[lang])
    assert len(found) == 1 and "'Rejoin the lecture'" in found[0]


# ----- the generated guides ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_generated_guide_is_what_its_catalog_makes(lang):
    catalog = guide.read(lang)
    assert guide.outdated(lang, catalog) == []
    text = guide.guide_path(lang).read_text(encoding="utf-8")
    assert text == guide.render(catalog)
    assert "[teaching.md](teaching.md)" in text, "it links back to the English it comes from"


@pytest.mark.parametrize("lang", LANGS)
def test_a_changed_translation_makes_the_generated_guide_outdated(lang, tmp_path):
    def edit(catalog):
        message_with(catalog, "Only your own two windows.").string += " !"

    catalog = guide.read(lang, copy_catalog(tmp_path, lang, edit))
    assert guide.outdated(lang, catalog) == [
        f"docs/teaching.{lang}.md is not generated from its catalog: run python -m ui.catalog guides"]
