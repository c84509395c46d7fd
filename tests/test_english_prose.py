"""The English-prose finder (tests/english.py) on the catalogs themselves: no translation of id, vi or ko holds a
run of English prose, and the finder does find the English: most of the source strings, and a translation left in
English."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from tests.english import english_runs
from ui.words.i18n import catalog_path

LANGS = ("id", "vi", "ko")


def translations(lang: str) -> list[tuple[str, str]]:
    with catalog_path(lang).open("rb") as f:
        return [(str(m.id), str(m.string)) for m in read_po(f) if m.id and m.string]


@pytest.mark.parametrize("lang", LANGS)
def test_no_translation_holds_english_prose(lang):
    found = {english[:60]: runs for english, translated in translations(lang)
             if (runs := english_runs(translated, lang))}
    assert not found, found


@pytest.mark.parametrize("lang", LANGS)
def test_the_finder_finds_the_english_a_translation_would_leave(lang):
    prose = [english for english, _ in translations(lang) if len(english.split()) >= 6]
    found = sum(bool(english_runs(english, lang)) for english in prose)
    assert found >= 0.85 * len(prose), (found, len(prose))
    assert english_runs("Hide later tokens from each query (3.5).", lang)  # one real string, left in English
    assert not english_runs("“Your journey starts with one step”: causal mask, dropout, softmax", lang)
