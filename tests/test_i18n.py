"""The four languages: catalogs complete and current, one-string fallback, the language chosen
from the link, the sidebar and the browser, and every page reading as its language."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from streamlit.testing.v1 import AppTest

from attention.errors import ExplainedValueError
from tests.apptest import APP, BOOK_VALUES, open_page, shown_text
from ui import catalog as catalogs
from ui.chapter import PAGES
from ui.inputs.matrix import InputMatrix
from ui.words.i18n import LANGUAGES, LOCALES, explain, fill, load_catalog, negotiate, translate

OTHER_LANGS = [lang for lang in LANGUAGES if lang != "en"]
ROOT = Path(__file__).resolve().parents[1]


# ----- the catalogs --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def template() -> Catalog:
    return catalogs.source_catalog()


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_every_catalog_translates_every_english_string_and_nothing_stale(lang, template):
    problems = catalogs.check(lang, template)
    assert not problems.missing, f"{lang} lacks {len(problems.missing)}: {problems.missing[:5]}"
    assert not problems.stale, f"{lang} has stale strings: {problems.stale[:5]}"
    assert not problems.fields, f"{lang} translations with other {{fields}} than English: {problems.fields[:5]}"
    assert not problems.glossary, f"{lang} against its glossary: {problems.glossary[:5]}"
    assert not problems.header, problems.header


def test_the_template_in_the_repository_is_the_current_english(template):
    with (LOCALES / "messages.pot").open("rb") as f:
        stored = read_po(f)
    current = {(m.context, m.id) for m in template if m.id}
    assert {(m.context, m.id) for m in stored if m.id} == current, "run: python -m ui.catalog update"


def _po(tmp_path: Path, entries: list[tuple[str | None, str, str, bool]]) -> Path:
    """A catalog file: (context, English, translation, fuzzy) per entry."""
    catalog = Catalog(locale="fr")
    for context, english, french, fuzzy in entries:
        catalog.add(english, french, context=context, flags=("fuzzy",) if fuzzy else ())
    path = tmp_path / "messages.po"
    with path.open("wb") as f:
        write_po(f, catalog)
    return path


def test_the_check_finds_a_missing_a_stale_and_a_broken_translation(tmp_path):
    template = Catalog()
    for english in ("Hello {name}", "Goodbye", "Kept"):
        template.add(english, context="p")
    path = _po(tmp_path, [("p", "Hello {name}", "Bonjour {nom}", False), ("p", "Kept", "Gardé", False),
                          ("p", "Removed from English", "Supprimé", False)])
    problems = catalogs.check("fr", template, path)
    assert [m for m in problems.missing if "Goodbye" in m]
    assert [m for m in problems.stale if "Removed" in m]
    assert [m for m in problems.fields if "Hello" in m]
    assert not [m for m in problems.missing + problems.stale + problems.fields if "Kept" in m]


def test_a_missing_empty_or_fuzzy_translation_falls_back_to_english_one_string_at_a_time(tmp_path):
    path = _po(tmp_path, [("p", "Translated", "Traduit", False), ("p", "Empty", "", False),
                          ("p", "Changed in English", "Ancienne traduction", True)])
    fr = load_catalog(path, "fr")
    assert fr.pgettext("p", "Translated") == "Traduit"
    assert fr.pgettext("p", "Empty") == "Empty"
    assert fr.pgettext("p", "Changed in English") == "Changed in English"
    assert fr.pgettext("p", "Not in the catalog") == "Not in the catalog"
    assert fr.pgettext("other page", "Translated") == "Translated"  # the context is part of the key


def test_every_translated_string_formats_with_the_english_fields(template):
    """Run each translation through str.format with the fields its English uses: no KeyError, no stray brace."""
    for lang in OTHER_LANGS:
        for message in template:
            if not message.id or "python-brace-format" not in message.flags:
                continue
            fields = {name: 1 for name in catalogs._fields(message.id)}
            translate(message.id, lang, message.context).format(**fields)


def test_browser_locales_map_to_the_apps_languages():
    assert negotiate("ko-KR") == "ko" and negotiate("vi") == "vi" and negotiate("id_ID") == "id"
    assert negotiate("in-ID") == "id"  # the old code for Indonesian
    assert negotiate("en-GB") == "en"
    assert negotiate("fr-FR") is None and negotiate("") is None and negotiate(None) is None


def test_an_error_is_translated_with_its_numbers_kept():
    error = ExplainedValueError("d_out ({d_out}) must be divisible by num_heads ({num_heads}).", d_out=6, num_heads=4)
    assert explain(error, "en") == str(error) == "d_out (6) must be divisible by num_heads (4)."
    for lang in OTHER_LANGS:
        text = explain(error, lang)
        assert "6" in text and "4" in text
    assert explain(ValueError("plain"), "ko") == "plain"


# ----- every page in every language ----------------------------------------------------------

HANGUL = re.compile(r"[\uac00-\ud7a3]")
# Letters with the diacritics only Vietnamese uses among the four languages (ơ, ư, đ, ă and tone marks on them).
VIETNAMESE = re.compile(r"[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]", re.IGNORECASE)
ID_WORDS = {"yang", "dan", "untuk", "dengan", "ini", "dari", "setiap", "adalah", "pada", "akan", "tidak", "ke"}
EN_WORDS = {"the", "and", "of", "is", "to", "each", "with", "this", "that", "are", "for", "every"}


def prose(at) -> str:
    """The words a page shows: titles, Markdown, captions, labels, alerts (not code, not tensors)."""
    parts = [e.value for kind in ("title", "header", "subheader", "markdown") for e in getattr(at, kind)]
    parts += [e.value for e in at.caption] + [str(e.value) for e in at.info] + [str(e.value) for e in at.warning]
    parts += [w.label for kind in ("button", "toggle", "slider", "number_input", "selectbox", "radio")
              for w in getattr(at, kind)]
    parts += [e.label for e in at.expander]
    text = "\n".join(parts)
    text = re.sub(r"`[^`]*`", " ", text)  # inline code stays in English
    return re.sub(r"\$[^$]*\$", " ", text)  # and so does LaTeX


def reads_as(text: str, lang: str) -> bool:
    words = re.findall(r"[^\W\d_]+", unicodedata.normalize("NFC", text.lower()))
    english = sum(w in EN_WORDS for w in words)
    if lang == "ko":
        letters = sum(ch.isalpha() for ch in text)
        return len(HANGUL.findall(text)) > 0.4 * letters
    if lang == "vi":
        return len(VIETNAMESE.findall(text)) > 0.08 * len(words) and english < 0.03 * len(words)
    if lang == "id":
        return sum(w in ID_WORDS for w in words) > 0.05 * len(words) and english < 0.03 * len(words)
    raise AssertionError(lang)


def test_the_language_check_tells_the_languages_apart():
    samples = {
        "en": "Each query looks at every key, and the weights of the row add up to one.",
        "id": "Setiap query melihat ke semua key, dan bobot pada satu baris dijumlahkan menjadi satu.",
        "vi": "Mỗi query nhìn vào mọi key, và các trọng số trên một hàng cộng lại bằng một.",
        "ko": "각 쿼리는 모든 키를 보며, 한 행의 가중치를 모두 더하면 1이 됩니다.",
    }
    for lang in OTHER_LANGS:
        assert reads_as(samples[lang], lang)
        assert not any(reads_as(samples[other], lang) for other in samples if other != lang), lang


@pytest.mark.parametrize("lang", OTHER_LANGS)
@pytest.mark.parametrize("page", PAGES, ids=[p.page_id for p in PAGES])
def test_every_page_reads_as_its_language(page, lang):
    at = open_page(page.page_id, params={"lang": lang})
    assert not at.exception, [e.value for e in at.exception]
    text = prose(at)
    assert reads_as(text, lang), f"{page.page_id} in {lang} does not read as {LANGUAGES[lang]}:\n{text[:600]}"
    assert at.query_params["lang"] == lang  # part of the link


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_the_chapters_printed_values_are_on_screen_in_every_language(lang):
    for page_id, values in BOOK_VALUES.items():
        if page_id == "text-to-attention":  # not the book's: its example text is in the reader's language
            continue
        at = open_page(page_id, params={"lang": lang})
        missing = [v for v in values if v not in shown_text(at)]
        assert not missing, f"{page_id} in {lang} does not show {missing}"


def test_the_link_wins_then_the_browser_locale_then_english():
    assert open_page("home", params={"lang": "vi"}).session_state["_lang"] == "vi"
    at = AppTest.from_file(APP, default_timeout=120)  # one run on the home page: the warning is on it
    at.query_params["lang"] = "xx"
    at.run()
    assert at.session_state["_lang"] == "en" and at.query_params["lang"] == "en"
    assert any("xx" in str(w.value) for w in at.warning)  # said, not silently ignored


def test_switching_language_keeps_the_matrix_the_controls_and_the_page():
    matrix = InputMatrix(("a", "b", "c"), [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    at = open_page("causal-mask", state={"matrix": matrix})
    at.toggle(key="w:causal-mask:causal").set_value(False).run()
    before = at.session_state["controls"]["causal-mask"].copy()
    at.sidebar.selectbox(key="lang_select").set_value("ko").run()
    assert not at.exception
    assert at.session_state["_lang"] == "ko" and at.query_params["lang"] == "ko"
    assert HANGUL.search(at.title[0].value), at.title[0].value
    assert at.session_state["matrix"].tokens == ("a", "b", "c")
    assert at.session_state["controls"]["causal-mask"] == before
    assert at.toggle(key="w:causal-mask:causal").value is False


@pytest.mark.parametrize("lang, comma", [("id", True), ("vi", True), ("ko", False), ("en", False)])
def test_a_number_in_prose_follows_the_readers_convention_but_code_stays_python(lang, comma):
    from ui.words.content import app_text

    shown = app_text("check_the_answer", lang=lang, answer="0.9544")
    assert ("0,9544" in shown) == comma and ("0.9544" in shown) == (not comma), shown
    assert "2.360.064" in app_text("check_the_answer", lang=lang, answer="2,360,064") or not comma
    agree = app_text("comparison_agree", lang=lang, a="A", b="B", diff="0.0001")
    assert "`0.0001`" in agree, agree  # in a code span: as Python writes it
    assert "(2, 6)" in app_text("check_the_answer", lang=lang, answer="(2, 6)")  # a shape is not a number


@pytest.mark.parametrize("lang, shown", [("id", "0,50"), ("vi", "0,50"), ("ko", "0.50"), ("en", "0.50")])
def test_the_dropout_page_writes_its_numbers_as_the_reader_does(lang, shown):
    """Slider, metric and help in the reader's convention, as the prose beside them (a decimal comma in id and vi)."""
    at = open_page("dropout", params={"lang": lang})
    rate = at.select_slider(key="w:dropout:dropout")
    assert rate.value == 0.5 and rate.format_func(rate.value) == shown
    kept = at.metric[0]
    assert ("," in kept.value) == (shown == "0,50") and ("." in kept.value) == (shown == "0.50")
    assert kept.help.endswith(shown)  # "expected 0.50", "nilai harapan: 0,50"


@pytest.mark.parametrize("lang, comma", [("id", True), ("vi", True), ("ko", False)])
def test_a_number_the_package_formats_follows_the_readers_convention_too(lang, comma):
    """A trace's meaning ({scale:g}) and an error's fields ({value:g}) are formatted by the template: in id and vi
    they read with a decimal comma, as the prose around them; a field inside `code` stays Python's."""
    from ui.inputs.matrix import MAX_ABS_VALUE, clean_value

    meaning = fill("survivors become 1/(1-p) = {scale:g}", {"scale": 2.5}, lang)
    assert ("2,5" in meaning) == comma and ("2.5" in meaning) == (not comma), meaning
    with pytest.raises(ExplainedValueError) as raised:
        clean_value(MAX_ABS_VALUE + 0.5, 1, "d1")  # "is 10000.5; keep embeddings within ±10000"
    said = explain(raised.value, lang)
    assert ("10000,5" in said) == comma and ("10000.5" in said) == (not comma), said
    code = fill("`torch.manual_seed({seed})` then {p:.2f}", {"seed": 123, "p": 0.5}, lang)
    assert "`torch.manual_seed(123)`" in code and (("0,50" in code) == comma)
