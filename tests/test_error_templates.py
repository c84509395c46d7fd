"""Every error a learner can see is a translatable template: a literal English sentence plus its fields.

Babel's extractor (``python -m ui.catalog extract``) only sees a raise whose first argument is a
literal string; an f-string or a message built beforehand would be shown in English forever.
"""

from __future__ import annotations

import ast
import base64
import json
import string
import zlib
from pathlib import Path

import pytest
import torch

import attention
from attention.errors import Explained, ExplainedValueError
from ui.catalog import ERROR_CLASSES, source_messages
from ui.chapter import PAGES
from ui.inputs.matrix import InputError, from_rows
from ui.lecture.walkthrough import WalkthroughError, parse
from ui.sharing.codec import LinkError, decode_state
from ui.words.i18n import explain

ROOT = Path(__file__).resolve().parents[1]
CODE_DIRS = ("attention", "ui", "pages")
LIMITS = {"max_tokens": 64, "max_dim": 32}


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _error_calls(root: Path = ROOT) -> list[tuple[str, ast.Call]]:
    """Every call of one of the templated error classes in the app's code, with its file:line."""
    calls = []
    for folder in CODE_DIRS:
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and _called_name(node) in ERROR_CLASSES:
                    calls.append((f"{path.relative_to(root)}:{node.lineno}", node))
    return calls


def _literal_template(call: ast.Call) -> str | None:
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def _field_names(template: str) -> set[str]:
    """``{row}``, ``{value!r}``, ``{limit:g}`` -> row, value, limit."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names


def test_the_scan_finds_the_errors():
    """A guard for the guard: the scan below sees the raises it is meant to check."""
    where = {w.split(":")[0] for w, _ in _error_calls()}
    assert {"attention/validation.py", "ui/inputs/matrix.py", "ui/sharing/codec.py",
            "ui/lecture/walkthrough.py"} <= where


def test_no_learner_facing_error_is_raised_untemplated():
    """A plain ValueError/TypeError with a message in the package or the ui could not be translated."""
    plain = []
    for folder in ("attention", "ui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
                if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                        and _called_name(node.exc) in {"ValueError", "TypeError"} and node.exc.args):
                    plain.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    # content files, glossaries, chart specs and the notebooks' book files are the developers' and translators'
    # input, not the learner's
    allowed = {p for p in plain if p.startswith(("ui/words/content.py", "ui/words/glossary.py",
                                                 "ui/draw/chart_cells.py", "ui/sharing/book_files.py"))}
    assert not set(plain) - allowed, f"raise an ExplainedValueError/TypeError instead: {sorted(set(plain) - allowed)}"


def test_every_error_template_is_a_literal_string():
    bad = [where for where, call in _error_calls() if _literal_template(call) is None]
    assert not bad, (
        "these errors are raised with a message that is not a literal string, so it cannot be "
        f"translated; write the English template literally and pass the values as keywords: {bad}"
    )


def test_every_template_field_is_given():
    """A ``{field}`` without its keyword would fail only when the error is raised, in front of a learner."""
    bad = []
    for where, call in _error_calls():
        template = _literal_template(call)
        if template is None or any(k.arg is None for k in call.keywords):  # **fields: checked when raised
            continue
        try:
            wanted = _field_names(template)
        except ValueError as exc:  # an unmatched brace
            bad.append(f"{where}: {exc}")
            continue
        given = {k.arg for k in call.keywords}
        if wanted - given:
            bad.append(f"{where}: no value for {sorted(wanted - given)}")
    assert not bad, bad


def test_the_extractor_sees_every_template():
    """Babel reads the same literals the scan does: each one lands in messages.pot."""
    extracted = {m.text for m in source_messages() if m.context is None}
    templates = {_literal_template(call) for _, call in _error_calls()} - {None}
    missing = sorted(templates - extracted)
    assert not missing, missing


def _pack(obj) -> str:
    return base64.urlsafe_b64encode(zlib.compress(json.dumps(obj).encode())).decode().rstrip("=")


def _decode(payload) -> None:
    decode_state(_pack(payload), pages={p.page_id for p in PAGES}, **LIMITS)


@pytest.mark.parametrize(
    ("make", "kind", "english"),
    [
        (lambda: from_rows(["a", "b"], [[1.0], ["abc"]], **LIMITS), InputError,
         "row 2, column d1: “abc” is not a number; type one such as 0.5 or 0,5."),
        (lambda: from_rows(["a"], [[1e30]], **LIMITS), InputError,
         "row 1, column d1 is 1e+30; keep embeddings within ±10000 (bigger values overflow the attention scores)."),
        (lambda: attention.MultiHeadAttention(3, 6, 6, 0.0, num_heads=4), ExplainedValueError,
         "d_out (6) must be divisible by num_heads (4) so that every head gets the same width. "
         "With d_out=6 you can use num_heads in [1, 2, 3, 6], or change d_out to a multiple of 4."),
        (lambda: attention.dropout_demo(torch.ones(1, 3, 3)), ExplainedValueError,
         "weights must have shape (num_tokens, 3); got a tensor with 3 dimension(s) and shape (1, 3, 3)."),
        (lambda: _decode({"v": 1, "c": {"one-query": {"seed": 2**40}}}), LinkError,
         "control 'seed' on one-query is out of range."),
        (lambda: _decode({"v": 1, "m": {"t": ["a", "b"], "x": [[1.0]]}}), LinkError,
         "the link's matrix is not valid: 2 token names for 1 rows of numbers."),
        (lambda: parse('[[step]]\npage = "causal-mask"\nstep = "nope"'), WalkthroughError,
         "step 1: page 'causal-mask' has no step 'nope'; its steps are"),
    ],
    ids=["bad-cell", "huge-cell", "heads", "rank", "link-control", "link-matrix", "walkthrough"],
)
def test_a_real_error_is_its_template_filled_in(make, kind, english):
    with pytest.raises(kind) as info:
        make()
    error = info.value
    assert isinstance(error, Explained) and isinstance(error, ValueError)
    assert str(error).startswith(english)
    assert error.template.format(**error.fields) == str(error)
    assert explain(error, "en") == str(error)
    assert not any(str(value) in error.template for value in error.fields.values() if len(str(value)) > 3)
    assert error.template in {m.text for m in source_messages() if m.context is None}


def test_a_wrapped_error_keeps_its_own_template():
    """A bad matrix inside a link: the link's sentence holds the matrix's error, not its English text."""
    with pytest.raises(LinkError) as info:
        _decode({"v": 1, "m": {"t": ["a"], "x": [[1e30]]}})
    inner = info.value.fields["problem"]
    assert isinstance(inner, InputError) and inner.template.startswith("row {row}, column {column} is {value:g}")


def test_an_explained_error_survives_pickling_even_with_braces_in_its_message():
    import pickle

    from ui.lecture.walkthrough import WalkthroughError

    error = WalkthroughError("write {{ causal = true }} on step {number}.", number=3)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is WalkthroughError and str(copy) == str(error) and copy.fields == {"number": 3}


def test_a_nested_error_is_translated_inside_the_outer_one(monkeypatch):
    from ui.words import i18n

    inner = ExplainedValueError("cell {cell} is empty.", cell="d1")
    outer = ExplainedValueError("the link's matrix is not valid: {problem}", problem=inner)
    words = {"cell {cell} is empty.": "sel {cell} kosong.",
             "the link's matrix is not valid: {problem}": "matriks tautan tidak valid: {problem}"}
    monkeypatch.setattr(i18n, "translate", lambda text, lang, context=None: words.get(text, text))
    assert i18n.explain(outer, "id") == "matriks tautan tidak valid: sel d1 kosong."
