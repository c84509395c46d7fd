"""A page's state as a Jupyter notebook that reproduces it in plain PyTorch, the way the book writes it.

Each page's code is a Python file in ``ui/sharing/book/`` (``causal-mask`` -> ``causal_mask.py``) that runs on its
own at the book's settings once the book's pieces it names (``# book: CausalAttention``, ``book/pieces.py``) are put
in, as book_files.py does. Cells are separated by headers::

    # %% <key> [if <condition>] [-> <step>, <step>]

- ``key`` names the cell's markdown in the page's content file (``[notebook]`` table, translated like every word);
- ``if`` keeps the cell only when the condition holds for the state (``causal``, ``not causal``,
  ``dropout > 0 and training``: names, numbers, ``not``/``and``/``or`` and comparisons);
- ``->`` names the page's trace steps the cell prints, in order (``weights``, ``v1.weights``): a test executes the
  notebook and compares each with the app's values.

Two cells are the state's: ``inputs`` is replaced by the learner's tokens and matrix, and in ``settings`` every
``name = value`` line whose name is one of the page's controls gets the control's value. A line that is not a
control (``context_length = inputs.shape[0]``) stays as written. The notebook imports only ``torch``.

Plain Python (no Streamlit): the page hands over a :class:`NotebookSpec`, plain data, and gets bytes back.

The book files and a cell's ``if`` are read in book_files.py, the state and its checks are notebook_spec.py's; this
module writes the cells and the notebook, a page's or the whole walkthrough's.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import nbformat
import numpy as np
from nbformat import v4

from ..inputs.matrix import InputMatrix
from ..words import i18n
from ..words.content import app_text, page_text
from .book_files import BOOK, Cell, book_cells, book_pages, has_notebook, holds
from .notebook_spec import NotebookError, NotebookSpec, check, check_size

__all__ = ["BOOK", "Cell", "NotebookError", "NotebookSpec", "book_cells", "book_pages", "build", "check", "check_size",
           "has_notebook", "notebook_bytes", "settings_of", "state_code", "walk_specs", "walkthrough_bytes",
           "walkthrough_notebook"]


# ----- the state ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Line:
    """One line of a settings cell: the name it assigns, its value's source and its comment (None: another line)."""

    text: str
    name: str | None = None
    value: str = ""
    comment: str = ""


def _settings_lines(page: str) -> list[_Line]:
    code = next(c.code for c in book_cells(page) if c.key == "settings")
    out = []
    for line in code.splitlines():
        match = re.match(r"^([a-z_][a-z0-9_]*) = (.+?)(\s+#.*)?$", line)
        out.append(_Line(line, match.group(1), match.group(2), match.group(3) or "") if match else _Line(line))
    return out


def settings_of(spec: NotebookSpec) -> dict[str, Any]:
    """The settings the notebook runs with: each control's value where the page has it, else the file's literal."""
    values: dict[str, Any] = {}
    for line in _settings_lines(spec.page):
        if line.name is None:
            continue
        if line.name in spec.controls:
            values[line.name] = spec.controls[line.name]
            continue
        try:
            values[line.name] = ast.literal_eval(line.value)
        except (ValueError, SyntaxError):
            pass  # an expression of the inputs (context_length = inputs.shape[0]): not a condition's name
    return values



# ----- the cells ----------------------------------------------------------------------------------------------------
def _inputs_code(spec: NotebookSpec) -> str:
    rows = "\n".join(f"    [{', '.join(_number(v) for v in row)}],  # {t!r}"
                     for t, row in zip(spec.tokens, spec.rows, strict=True))
    tokens = ", ".join(repr(t) for t in spec.tokens)
    return f"tokens = [{tokens}]\ninputs = torch.tensor([\n{rows}\n])  # (num_tokens, d_in)"


def _number(value: float) -> str:
    """The shortest text that gives back the same float32 (the app keeps the matrix in float32)."""
    if not math.isfinite(value):
        raise NotebookError("the matrix holds a value that is not a finite number.")
    for digits in range(4, 10):
        text = f"{value:.{digits}g}"
        if np.float32(text) == np.float32(value):
            return text if any(c in text for c in ".e") else f"{text}.0"
    return repr(value)


def _settings_code(spec: NotebookSpec) -> str:
    return "\n".join(f"{line.name} = {spec.controls[line.name]!r}{line.comment}" if line.name in spec.controls
                     else line.text for line in _settings_lines(spec.page))


def state_code(spec: NotebookSpec) -> str:
    """The two cells that carry the state, as the notebook writes them: the inputs, then the settings."""
    return f"{_inputs_code(spec)}\n{_settings_code(spec)}"


def page_cells(spec: NotebookSpec, lang: str, *, headings: bool = True) -> list[Any]:
    """The page's cells for this state: markdown from the page's words, code from its book file."""
    text = page_text(spec.page, lang)
    values = settings_of(spec)
    words = text.notebook
    captions = {s.name: s.caption for s in text.steps}
    cells: list[Any] = []
    if headings:
        cells.append(v4.new_markdown_cell(f"## {text.title}"))
    for cell in book_cells(spec.page):
        if not holds(cell.when, values):
            continue
        code = {"inputs": _inputs_code(spec), "settings": _settings_code(spec)}.get(cell.key, cell.code)
        if cell.key in words:
            cells.append(v4.new_markdown_cell(_markdown(words[cell.key], values, lang)))
        if spec.step is not None and spec.step in cell.prints:
            caption = captions.get(spec.step, spec.step)
            cells.append(v4.new_markdown_cell(app_text("nb_on_screen", lang, caption=caption)))
        if code.strip():
            made = v4.new_code_cell(code)
            if cell.prints:
                made.metadata["attention"] = {"page": spec.page, "prints": list(cell.prints)}
            cells.append(made)
    return cells


def _markdown(template: str, values: Mapping[str, Any], lang: str) -> str:
    """A cell's words with the settings filled in: a number as the reader writes it (0,5 in Indonesian and
    Vietnamese), except in a `code span`."""
    fields = _Fields(values)
    if i18n.decimal_comma(lang):
        fields = _Fields(i18n.reader_fields(template, fields))
    return template.format_map(fields)


class _Fields(dict):
    """A markdown cell's fields: the settings, as the markdown shows them (an unknown field stays as written)."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        plain = bool | int | float | str | i18n.ReaderNumber
        super().__init__({k: v for k, v in values.items() if isinstance(v, plain)})

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _notebook(cells: Sequence[Any], lang: str) -> Any:
    nb = v4.new_notebook()
    nb.cells = list(cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["attention"] = {"lang": lang}
    return nb


def build(spec: NotebookSpec, lang: str) -> Any:
    """The notebook of one page's state (an ``nbformat`` NotebookNode, validated)."""
    check(spec)
    intro = v4.new_markdown_cell(app_text("nb_intro", lang, title=page_text(spec.page, lang).title))
    nb = _notebook([intro, *page_cells(spec, lang, headings=False)], lang)  # the intro names the page
    nbformat.validate(nb)
    return nb


def notebook_bytes(spec: NotebookSpec, lang: str) -> bytes:
    return nbformat.writes(build(spec, lang)).encode("utf-8")


# ----- the walkthrough ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class WalkStepSpec:
    """One walkthrough step: its page, step, note and the controls the walkthrough set so far on that page."""

    page: str
    step: str
    note: str
    controls: Mapping[str, Any]


def walk_specs(steps: Sequence[Any]) -> list[WalkStepSpec]:
    """Each step with the controls in force when it is reached: a step's controls stay for that page's later steps
    (as the walkthrough applies them)."""
    kept: dict[str, dict[str, Any]] = {}
    out = []
    for step in steps:
        controls = kept.setdefault(step.page, {})
        controls.update(step.controls)
        out.append(WalkStepSpec(step.page, step.step, step.note, dict(controls)))
    return out


@dataclass(frozen=True)
class _Walk:
    """What every step's words need: the language, the notes' translation, the count, the step on screen."""

    lang: str
    note: Callable[[str], str]
    total: int
    current: int | None


def walkthrough_cells(matrix: InputMatrix, steps: Sequence[Any], lang: str, *, title: str,
                      note: Callable[[str], str] = str, current: int | None = None) -> list[Any]:
    """The whole walkthrough: consecutive steps on one page at the same controls share that page's code, and each
    step's markdown comes before the cell that prints it; ``current`` (from 0), the step on screen, is marked."""
    cells: list[Any] = [v4.new_markdown_cell(app_text("nb_walk_intro", lang, title=title, steps=len(steps)))]
    specs = walk_specs(steps)
    k = 0
    while k < len(specs):
        group = [specs[k]]
        while k + len(group) < len(specs) and specs[k + len(group)].page == group[0].page \
                and specs[k + len(group)].controls == group[0].controls:
            group.append(specs[k + len(group)])
        cells.extend(_walk_group(matrix, group, k, _Walk(lang, note, len(specs), current)))
        k += len(group)
    return cells


def _walk_group(matrix: InputMatrix, group: list[WalkStepSpec], first: int, walk: _Walk) -> list[Any]:
    spec = NotebookSpec.of(group[0].page, matrix, group[0].controls)
    check(spec)
    by_step = {g.step: (first + i, g) for i, g in enumerate(group)}
    captions = {s.name: s.caption for s in page_text(spec.page, walk.lang).steps}
    out: list[Any] = []
    for cell in page_cells(spec, walk.lang):
        marks = [by_step[p] for p in cell.metadata.get("attention", {}).get("prints", ()) if p in by_step] \
            if cell.cell_type == "code" else []
        for number, step in marks:
            words = app_text("nb_walk_step", walk.lang, k=number + 1, n=walk.total)
            out.append(v4.new_markdown_cell(f"### {words}\n\n{walk.note(step.note)}" if step.note
                                            else f"### {words}"))
            if number == walk.current:
                caption = captions.get(step.step, step.step)
                out.append(v4.new_markdown_cell(app_text("nb_on_screen", walk.lang, caption=caption)))
        if marks:
            cell.metadata["attention"]["walk_steps"] = [number + 1 for number, _ in marks]
        out.append(cell)
    return out


def walkthrough_notebook(matrix: InputMatrix, steps: Sequence[Any], lang: str, *, title: str,
                         note: Callable[[str], str] = str, current: int | None = None) -> Any:
    """The whole walkthrough's notebook (an ``nbformat`` NotebookNode, validated)."""
    check_size(matrix.num_tokens, matrix.dim)
    nb = _notebook(walkthrough_cells(matrix, steps, lang, title=title, note=note, current=current), lang)
    nbformat.validate(nb)
    return nb


def walkthrough_bytes(matrix: InputMatrix, steps: Sequence[Any], lang: str, *, title: str,
                      note: Callable[[str], str] = str, current: int | None = None) -> bytes:
    nb = walkthrough_notebook(matrix, steps, lang, title=title, note=note, current=current)
    return nbformat.writes(nb).encode("utf-8")

