"""The lines a step shows under "The lines that computed it" compute the very tensor the step shows,
on each of the bundled walkthrough's steps (AppTest; ui/draw/source.py picks the lines)."""

from __future__ import annotations

import ast

import pytest

import ui.draw
from tests.lecture_apptest import walk_app
from ui.draw.source import excerpt
from ui.lecture.walkthrough import load_bundled

RECORDERS = {"add", "record_qkv", "add_mask"}


def _recorded_elsewhere(snippet: str, name: str) -> set[str]:
    """The steps a snippet records that are not ``name`` (a recording of another step computes nothing here)."""
    found = set()
    for node in ast.walk(ast.parse(snippet)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add":
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value != name:
                found.add(first.value)
    return found


def _computes(snippet: str) -> bool:
    """An assignment, or a recording call with the tensor computed in it: not a docstring, not a bare name."""
    tree = ast.parse(snippet)
    statements = tree.body
    if any(isinstance(s, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Return) for s in statements):
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RECORDERS:
            return True
    return False


@pytest.fixture
def shown_code(monkeypatch):
    """Every (step name, snippet) the step-through draws code for."""
    seen: list[tuple[str, str]] = []
    drawn = ui.draw.show_step_code

    def spy(trace, name, *, lines=True, whole=True):
        if lines:  # the step's lines (its fold, the whole function, is drawn by a second call)
            code = excerpt(trace.step(name).where, name)
            seen.append((name, code.snippet() if code is not None else ""))
        drawn(trace, name, lines=lines, whole=whole)

    monkeypatch.setattr(ui.draw, "show_step_code", spy)
    return seen


def test_each_bundled_step_shows_the_lines_that_computed_its_tensor(shown_code):
    steps = load_bundled().steps
    at = walk_app()
    for k, step in enumerate(steps):
        if k:
            shown_code.clear()
            (forward,) = [b for b in at.button if b.label == "Next"]
            forward.click().run()
        assert not at.exception, at.exception
        name = step.step.rpartition(".")[2]
        assert shown_code and shown_code[-1][0] == name, (k + 1, step.step, shown_code)
        snippet = shown_code[-1][1]
        assert snippet, (k + 1, name)
        assert not _recorded_elsewhere(snippet, name), (k + 1, name, snippet)
        assert _computes(snippet), (k + 1, name, snippet)
        if name == "W_query":  # step 11: "this is W_query"
            assert "init_trainable_weights" in snippet or "torch.rand" in snippet, snippet
