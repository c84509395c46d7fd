"""'Open as a notebook' (ui/sharing/notebook.py): each page's notebook, run with nbclient, prints the app's values.

For each page: the state the page itself records at its defaults, and at 3 random valid states (opened through a
shared link, so the page checks them as it checks any link); each notebook runs in a fresh kernel, and every tensor
a cell prints is compared with the app's value of the step the cell names, to within 1e-4 (more only where PyTorch
printed a large number in scientific form).
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
import torch

from tests.apptest import open_page
from tests.apptest import printed_tensors as apptest_printed
from tests.lecture_apptest import lecture, press_next
from tests.notebooks import (
    app_traces,
    execute,
    execute_all,
    printed,
    printed_tensors,
    random_state,
    resolved_settings,
    tensor_texts,
    tolerance,
)
from ui.inputs.matrix import InputMatrix, book_matrix
from ui.sharing import notebook
from ui.sharing.codec import encode_state
from ui.sharing.notebook import NotebookError, NotebookSpec, book_cells, book_pages, build, settings_of
from ui.state import Key
from ui.words.content import page_text

PAGES = book_pages()


def spec_from_app(page: str, state: tuple[InputMatrix, dict] | None = None) -> NotebookSpec:
    """The state the page records for its notebook, opened at its defaults or through a link to ``state``."""
    params = None
    if state is not None:
        matrix, controls = state
        params = {"s": encode_state(matrix, {page: controls})[0]}
    at = open_page(page, params=params)
    assert not at.exception, at.exception
    return at.session_state[Key.NOTEBOOK_SPEC]


def mismatches(spec: NotebookSpec, nb) -> list[str]:
    """Every way the executed notebook differs from the app's values at the spec's state."""
    inputs = torch.tensor(spec.rows, dtype=torch.float32)
    traces = app_traces(spec.page, inputs, resolved_settings(spec))
    problems, seen = [], set()
    for cell in (c for c in nb.cells if c.cell_type == "code"):
        tags = cell.metadata.get("attention", {}).get("prints", [])
        text = printed(cell)
        got = printed_tensors(text)
        if len(got) != len(tags):
            problems.append(f"cell {tags or cell.source[:40]!r} printed {len(got)} tensors for {len(tags)} steps")
            continue
        for tag, value in zip(tags, got, strict=True):
            prefix, _, name = tag.rpartition(".")
            if prefix not in traces or name not in traces[prefix]:
                problems.append(f"{tag}: the app has no such step")
                continue
            seen.add(tag)
            want = traces[prefix][name].detach().double()
            if want.shape != value.shape:
                problems.append(f"{tag}: shape {tuple(value.shape)}, the app's {tuple(want.shape)}")
            elif not _close(value, want, tolerance(text)):
                problems.append(f"{tag}: largest difference {(value - want).abs().nan_to_num(0).max():.2e}")
    for step in page_text(spec.page).steps:  # every step the page's step-through shows is printed
        prefix, _, name = step.name.rpartition(".")
        if prefix in traces and name in traces[prefix] and step.name not in seen:
            problems.append(f"{step.name}: the page shows it, the notebook does not print it")
    return problems


def _close(got: torch.Tensor, want: torch.Tensor, tol: float) -> bool:
    if not torch.equal(torch.isinf(got), torch.isinf(want)) or not torch.equal(torch.isnan(got), torch.isnan(want)):
        return False
    finite = torch.isfinite(want)
    return bool(torch.equal(got[~finite].nan_to_num(0), want[~finite].nan_to_num(0))) and \
        bool(((got[finite] - want[finite]).abs() <= tol).all())


@pytest.mark.parametrize("page", PAGES)
def test_every_pages_notebook_prints_the_apps_values_at_defaults_and_three_random_states(page):
    rng = random.Random(f"notebook:{page}")
    specs = [spec_from_app(page)] + [spec_from_app(page, random_state(page, rng)) for _ in range(3)]
    assert len({(s.rows, tuple(sorted(s.controls.items()))) for s in specs}) == 4, "the random states repeat"
    for spec, nb in zip(specs, execute_all([build(s, "en") for s in specs]), strict=True):
        assert mismatches(spec, nb) == [], (spec.controls, spec.tokens)


@pytest.mark.parametrize("page", PAGES)
def test_a_book_files_settings_are_the_pages_defaults(page):
    """The walkthrough's notebook takes the settings a step does not set from the book file: they must be the
    page's own defaults."""
    defaults = spec_from_app(page).controls
    written = settings_of(NotebookSpec(page, (), (), {}))
    assert {k: v for k, v in written.items() if k in defaults} == {k: defaults[k] for k in written if k in defaults}


PLANTED = {  # a change to the notebook's code, and the first step whose printed values it changes
    "unscaled scores": ("attn_weights = torch.softmax(attn_scores / d_k**0.5, dim=-1)",
                        "attn_weights = torch.softmax(attn_scores, dim=-1)", "weights"),
    "mask after the softmax": ("attn_weights = torch.softmax(masked / d_k**0.5, dim=-1)",
                               "attn_weights = torch.softmax(attn_scores / d_k**0.5, dim=-1) * mask_simple",
                               "masked_weights"),
}


@pytest.mark.parametrize("planted", PLANTED)
def test_a_planted_change_in_the_notebooks_math_is_caught(planted, monkeypatch):
    old, new, first = PLANTED[planted]
    cells = book_cells("causal-mask")
    assert sum(old in c.code for c in cells) == 1, "the planted line is no longer in the book file"
    changed = tuple(replace(c, code=c.code.replace(old, new)) for c in cells)
    monkeypatch.setattr(notebook, "book_cells", lambda page: changed)
    spec = NotebookSpec.of("causal-mask", book_matrix(), {"seed": 789, "d_out": 2, "qkv_bias": False, "causal": True})
    problems = mismatches(spec, execute(build(spec, "en")))
    assert problems and problems[0].startswith(f"{first}: largest difference"), problems
    assert all(re.match(r"\w+: largest difference", p) for p in problems), problems


def test_the_walkthroughs_notebook_runs_end_to_end_and_matches_its_steps():
    from ui.lecture.walkthrough import load_bundled

    walk = load_bundled()
    matrix = book_matrix()
    nb = notebook.walkthrough_notebook(matrix, walk.steps, "en", title=walk.title)
    execute(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    marked = [k for c in code for k in c.metadata.get("attention", {}).get("walk_steps", [])]
    assert sorted(marked) == list(range(1, len(walk.steps) + 1)), "each step is marked once, before its cell"
    specs = notebook.walk_specs(walk.steps)
    projected = projected_tensors(len(walk.steps))
    for cell in (c for c in nb.cells if c.cell_type == "code" and c.metadata.get("attention", {}).get("walk_steps")):
        tags, got = cell.metadata["attention"]["prints"], printed_tensors(printed(cell))
        texts = tensor_texts(printed(cell))
        for k in cell.metadata["attention"]["walk_steps"]:
            step = specs[k - 1]
            spec = NotebookSpec.of(step.page, matrix, step.controls)
            traces = app_traces(step.page, matrix.tensor(), resolved_settings(spec))
            prefix, _, name = step.step.rpartition(".")
            value = got[tags.index(step.step)]
            assert _close(value, traces[prefix][name].double(), tolerance(printed(cell))), (k, step.page, step.step)
            # what the class reads on the projection at step k, and what the student's notebook prints there
            assert texts[tags.index(step.step)] == projected[k - 1], (k, step.page, step.step)


def projected_tensors(steps: int) -> list[str]:
    """The tensor the projection prints at each of the walkthrough's steps, walked as a lecturer walks it."""
    projection, _ = lecture(walk="1")
    shown = []
    for k in range(1, steps + 1):
        if k > 1:
            press_next(projection)
        (tensor,) = apptest_printed(projection)
        shown.append(tensor)
    return shown


@pytest.mark.parametrize("lang", ["id", "vi", "ko"])
def test_a_notebook_in_another_language_has_translated_words_and_the_same_code(lang):
    for page in PAGES:
        spec = NotebookSpec.of(page, book_matrix(), {})
        english, other = build(spec, "en"), build(spec, lang)
        code = [[c.source for c in nb.cells if c.cell_type == "code"] for nb in (english, other)]
        assert code[0] == code[1], page
        words = [[c.source for c in nb.cells if c.cell_type == "markdown"] for nb in (english, other)]
        assert len(words[0]) == len(words[1]), page
        same = [w for w, o in zip(*words, strict=True) if w == o and re.search(r"[A-Za-z]{4,} [a-z]{3,}", w)]
        assert same == [], (page, same[:2])


def test_bad_states_are_refused_with_a_message():
    good = NotebookSpec.of("causal-mask", book_matrix(), {"d_out": 2})
    bad = [
        NotebookSpec("home", good.tokens, good.rows, {}),
        NotebookSpec("causal-mask", good.tokens, good.rows, {"d_out": float("nan")}),
        NotebookSpec("causal-mask", good.tokens, good.rows, {"x" * 60: 1}),
        NotebookSpec("causal-mask", good.tokens, good.rows, {"d_out": [1, 2]}),
        NotebookSpec("causal-mask", ("a",) * 60, ((0.1,) * 40,) * 60, {}),
        NotebookSpec("causal-mask", good.tokens, good.rows[:-1], {}),
        NotebookSpec("causal-mask", good.tokens, good.rows, {f"c{k}": k for k in range(41)}),
        NotebookSpec("causal-mask", good.tokens, good.rows, {"d_out": "x" * 3000}),
    ]
    for spec in bad:
        with pytest.raises(NotebookError) as caught:
            build(spec, "en")
        assert str(caught.value)
    build(good, "en")


def test_hostile_token_names_stay_data():
    """A token is written as a Python string literal, and never into markdown: it cannot become code or HTML."""
    tokens = ('"]); import os; os.system("x")  #', "<img src=x onerror=alert(1)>", "a\\nb", "ok", "x'y", "z")
    spec = NotebookSpec.of("causal-mask", InputMatrix(tokens, book_matrix().values), {})
    nb = build(spec, "en")
    source = next(c.source for c in nb.cells if c.source.startswith("tokens = "))
    namespace: dict = {"torch": torch}
    exec(source, namespace)  # noqa: S102 - the generated cell, on its own
    assert namespace["tokens"] == list(tokens)
    assert all("onerror" not in c.source for c in nb.cells if c.cell_type == "markdown")


def test_a_setting_in_a_notebooks_words_is_written_as_the_reader_writes_numbers():
    spec = NotebookSpec.of("dropout", book_matrix(), {"dropout": 0.5})
    words = {lang: "\n".join(c.source for c in build(spec, lang).cells if c.cell_type == "markdown")
             for lang in ("en", "vi", "id")}
    assert "p = 0.5" in words["en"]
    assert "0,5" in words["vi"] and "0.5" not in words["vi"]
    assert "0,5" in words["id"] and "0.5" not in words["id"]


def test_the_walkthroughs_notebook_marks_the_step_on_screen():
    from ui.lecture.walkthrough import load_bundled

    walk = load_bundled()
    for current in (0, 4, len(walk.steps) - 1):
        nb = notebook.walkthrough_notebook(book_matrix(), walk.steps, "en", title=walk.title, current=current)
        marks = [k for k, c in enumerate(nb.cells) if c.source.startswith("**▶ On your screen")]
        assert len(marks) == 1, current
        after = next(c for c in nb.cells[marks[0]:] if c.cell_type == "code")
        assert current + 1 in after.metadata["attention"]["walk_steps"]
        assert nb.cells[marks[0] - 1].source.startswith(f"### Step {current + 1} of {len(walk.steps)}")
    unmarked = notebook.walkthrough_notebook(book_matrix(), walk.steps, "en", title=walk.title)
    assert not any(c.source.startswith("**▶ On your screen") for c in unmarked.cells)
