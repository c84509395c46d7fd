"""The English-prose finder (tests/english.py) on the catalogs themselves: no translation of id, vi or ko holds a
run of English prose, and the finder does find the English: most of the source strings, and a translation left in
English. And what never passes through a content file: every label the package shows is translated, and no formula
holds English words."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tests.english import english_label, english_runs, formula_words, is_code
from ui.words.i18n import catalog_path, translate

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


# ----- what the package shows: labels made in attention/, and the formulas of the content files ----------------------

def shown_labels() -> set[str]:
    """Every label the package hands a page: the compared methods of each section's real run, and each efficient
    variant's name and what it does."""
    from attention import VARIANTS, batched_product, book_inputs, causal_attention_step_by_step
    from attention.config import AttentionConfig
    from attention.explore import RunOptions, self_attention_classes, stacking_heads
    from attention.simple import simple_attention_for_query, simple_self_attention

    x = book_inputs()
    traces = [simple_attention_for_query(x), simple_self_attention(x), causal_attention_step_by_step(x),
              batched_product(), self_attention_classes(x).v1_from_v2,
              stacking_heads(x, AttentionConfig(d_in=3, d_out=2, context_length=6, num_heads=2), RunOptions()).trace]
    labels = {label for t in traces for c in t.comparisons for label in (c.label_a, c.label_b)}
    return labels | {v.name for v in VARIANTS} | {v.description for v in VARIANTS}


@pytest.mark.parametrize("lang", LANGS)
def test_every_label_the_package_shows_reaches_the_reader_translated(lang):
    labels = shown_labels()
    assert "v1 with v2's weights (transposed)" in labels and "book MultiHeadAttention" in labels
    english = sorted(label for label in labels if not is_code(label) and translate(label, lang) == label)
    assert not english, f"{lang}: mark these with attention.words.said, then extract and translate: {english}"


def test_every_label_written_in_the_package_is_code_or_marked_as_words():
    """A compared method's label or a variant's name written as a plain string must be Python (``X @ X.T``): the
    catalog collects only words marked with ``said``, so anything else would reach a translated page in English."""
    unmarked = []
    for path in sorted(Path("attention").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "func", None) and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
            picked = {"compare": (0, 2), "Variant": (0, 1)}.get(name, ()) if isinstance(node, ast.Call) else ()
            unmarked += [f"{path}:{node.lineno} {arg.value!r}" for i in picked if i < len(node.args)
                         and isinstance(arg := node.args[i], ast.Constant) and not is_code(str(arg.value))]
    assert not unmarked, unmarked


def test_the_label_and_formula_checks_find_english():
    assert english_label("v1 with v2's weights (transposed)", "ko") == ["weights"]
    assert english_label("book MultiHeadAttention", "vi") == ["book"]
    assert english_label("combined QKV + eager", "id") == ["combined"]
    assert not english_label("X @ X.T", "ko") and not english_label("SelfAttention_v2", "id")
    assert not english_label("MultiHeadAttention dari buku", "id")
    assert not english_label("책의 MultiHeadAttention", "ko")
    assert english_label("share", "vi", code=False) == ["share"]  # a chart's axis is words, not a Python name
    assert not english_label("scores", "ko", code=False)  # ... but a step's name, a lecture chart's title, is code
    assert formula_words(r"h_t = \tanh(W_h h_{t-1}) \qquad \text{decoder sees only } h_T", "vi") == [
        "decoder", "sees", "only"]
    assert not formula_words(r"\texttt{mask} = \mathrm{triu}(\mathbf{1}) \quad W_q^{\text{v1}}", "ko")


@pytest.mark.parametrize("lang", LANGS)
def test_no_formula_of_the_content_holds_english_words(lang):
    """Formulas are not translated, so the words inside one must be none: a formula holds symbols and code."""
    found = {}
    for path in sorted(Path("pages/content/en").glob("*.toml")):
        for key, formula in _formulas(tomllib.loads(path.read_text(encoding="utf-8"))):
            if words := formula_words(formula, lang):
                found[f"{path.name} {key}"] = words
    assert not found, found


def _formulas(table: dict, prefix: str = ""):
    for key, value in table.items():
        if isinstance(value, dict):
            yield from _formulas(value, f"{prefix}{key}.")
        elif key == "formula" and isinstance(value, str):
            yield prefix + key, value
