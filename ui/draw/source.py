"""Which lines of the package's source computed a recorded step (plain Python, unit-tested).

Every :class:`~attention.trace.Step` knows the function and the line that recorded it
(``step.where``). The lines that *computed* it are the statement that last assigned the
recorded variable before that line (``scores = queries @ keys.transpose(-2, -1)`` for
``trace.add("scores", scores, ...)``), or the recording statement itself when the tensor is
computed inside the call (``trace.add("query", x_q @ W, ...)``). A loop variable's lines are those
that computed what the loop walks (``weights = init_trainable_weights(...)`` for ``for name, w in
weights.items(): trace.add(name, w, ...)``); a tensor passed in is shown by its recording statement.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
from dataclasses import dataclass

from attention.trace import Where

__all__ = ["CodeExcerpt", "excerpt"]

MARK = "  # ◀ {label}"  # the label is in the reader's language (ui/draw/listing.py passes it)


@dataclass(frozen=True)
class CodeExcerpt:
    qualname: str
    lines: tuple[str, ...]  # the whole function, dedented
    first_line: int  # file line number of lines[0]
    highlighted: tuple[int, ...]  # indexes into lines

    def marked(self, label: str) -> str:
        """The whole function with the step's lines marked ``# ◀ label``."""
        mark = MARK.format(label=label)
        return "\n".join(line + (mark if i in self.highlighted else "") for i, line in enumerate(self.lines))

    def snippet(self) -> str:
        """Only the step's lines."""
        return textwrap.dedent("\n".join(self.lines[i] for i in self.highlighted))


def excerpt(where: Where | None, step: str = "") -> CodeExcerpt | None:
    """The source of the function that recorded a step, with the lines that computed it."""
    if where is None:
        return None
    return _excerpt(where, step)


@functools.lru_cache(maxsize=512)
def _excerpt(where: Where, step: str) -> CodeExcerpt | None:
    """:func:`excerpt`, worked out once per place and step (the package's source does not change)."""
    try:
        raw, first = inspect.getsourcelines(where.code)
    except (OSError, TypeError):
        return None
    text = textwrap.dedent("".join(raw))
    lines = tuple(text.splitlines())
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    record_line = where.line - first + 1  # 1-based inside the dedented function
    start, end = _producing_statement(tree, record_line, step)
    return CodeExcerpt(where.code.co_qualname, lines, first, tuple(range(start - 1, end)))


def _statements(tree: ast.AST) -> list[ast.stmt]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.stmt) and not isinstance(node, ast.FunctionDef)]


def _producing_statement(tree: ast.AST, record_line: int, step: str) -> tuple[int, int]:
    """(first, last) 1-based lines of the statement that computed the recorded tensor."""
    statements = _statements(tree)
    recording = min((s for s in statements if s.lineno <= record_line <= (s.end_lineno or s.lineno)),
                     key=lambda s: (s.end_lineno or s.lineno) - s.lineno, default=None)
    if recording is None:
        return record_line, record_line
    names = _recorded_names(recording, step)
    found = _last_assignment(statements, names, recording.lineno)
    if found is not None:
        return found.lineno, found.end_lineno or found.lineno
    loop = _loop_over(statements, names, recording.lineno)
    if loop is not None:  # a loop variable: what the loop walks was computed before it (``for name, w in weights``)
        found = _last_assignment(statements, {n.id for n in ast.walk(loop.iter) if isinstance(n, ast.Name)},
                                 loop.lineno)
        return (found.lineno, found.end_lineno or found.lineno) if found is not None else (loop.lineno, loop.lineno)
    return recording.lineno, recording.end_lineno or recording.lineno  # computed in the call, or passed in


def _last_assignment(statements: list[ast.stmt], names: set[str], before: int) -> ast.stmt | None:
    """The last statement ending before line ``before`` that assigns one of ``names``."""
    earlier = [s for s in statements if (s.end_lineno or s.lineno) < before and _assigns(s) & names]
    return max(earlier, key=lambda s: s.lineno, default=None)


def _loop_over(statements: list[ast.stmt], names: set[str], line: int) -> ast.For | None:
    """The innermost ``for`` loop around ``line`` whose target binds one of ``names``."""
    loops = [s for s in statements if isinstance(s, ast.For) and s.lineno < line <= (s.end_lineno or s.lineno)
             and {n.id for n in ast.walk(s.target) if isinstance(n, ast.Name)} & names]
    return max(loops, key=lambda s: s.lineno, default=None)


def _recorded_names(statement: ast.stmt, step: str) -> set[str]:
    """The variables a recording statement passes on as tensors (none if it computes them inline)."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            if name == "add" and len(node.args) >= 2:
                return {node.args[1].id} if isinstance(node.args[1], ast.Name) else set()
            if name in {"record_qkv", "add_mask"}:
                passed = {a.id for a in node.args[1:] if isinstance(a, ast.Name)}
                return {step} if step in passed else passed
    return set()


def _assigns(statement: ast.stmt) -> set[str]:
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, ast.AugAssign | ast.AnnAssign):
        targets = [statement.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
