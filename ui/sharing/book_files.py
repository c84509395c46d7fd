"""The book files (``ui/sharing/book/``, one per page): their cells, cut at the ``# %% <key> [if <condition>]
[-> <step>, ...]`` headers that ui/sharing/notebook.py describes, and the tiny language of a cell's ``if``.

Apart from the notebook built of them (notebook.py): these are the developers' input, read once per process, and a
file that does not parse is a developer's error (a plain ValueError), not a learner's.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..chapter import PAGES

__all__ = ["BOOK", "Cell", "book_cells", "book_file", "book_pages", "has_notebook", "holds"]

BOOK = Path(__file__).resolve().parent / "book"
_HEADER = re.compile(r"^# %% (?P<key>[a-z][a-z0-9_]*)(?: if (?P<when>(?:(?! -> ).)+))?(?: -> (?P<prints>.+))?\s*$")
_STEP = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)?$")


@dataclass(frozen=True)
class Cell:
    key: str
    code: str
    when: str | None = None
    prints: tuple[str, ...] = ()


def book_file(page: str) -> Path:
    return BOOK / f"{page.replace('-', '_')}.py"


@cache
def book_cells(page: str) -> tuple[Cell, ...]:
    """The cells of a page's book file, in order."""
    path = book_file(page)
    cells: list[Cell] = []
    header, lines = None, []
    for line in [*path.read_text(encoding="utf-8").splitlines(), "# %% end"]:
        match = _HEADER.match(line)
        if not match:
            if line.startswith("# %%"):
                raise ValueError(f"{path}: a cell header that does not parse: {line!r}")
            lines.append(line)
            continue
        if header is not None:
            prints = tuple(p.strip() for p in (header["prints"] or "").split(",") if p.strip())
            if not all(_STEP.match(p) for p in prints):
                raise ValueError(f"{path}: cell {header['key']!r} prints a step with a bad name: {prints}")
            cells.append(Cell(header["key"], "\n".join(lines).strip("\n"), header["when"], prints))
        header, lines = match, []
    keys = [c.key for c in cells]
    if "inputs" not in keys or "settings" not in keys:
        raise ValueError(f"{path}: a book file needs an 'inputs' and a 'settings' cell")
    return tuple(cells)


@cache
def has_notebook(page: str) -> bool:
    return book_file(page).exists()


def book_pages() -> tuple[str, ...]:
    """The pages that have a book file (every page that computes something)."""
    return tuple(p.page_id for p in PAGES if has_notebook(p.page_id))


# ----- conditions ---------------------------------------------------------------------------------------------------
_ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.Compare, ast.Name, ast.Load,
            ast.Constant, ast.Gt, ast.GtE, ast.Lt, ast.LtE, ast.Eq, ast.NotEq)


def holds(condition: str | None, values: Mapping[str, Any]) -> bool:
    """Whether a cell's ``if`` condition holds for the settings (a tiny language: no calls, no attributes)."""
    if condition is None:
        return True
    tree = ast.parse(condition.strip(), mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise ValueError(f"condition {condition!r}: {type(node).__name__} is not allowed")
        if isinstance(node, ast.Name) and node.id not in values:
            raise ValueError(f"condition {condition!r}: {node.id!r} is not a setting with a literal value")
    return bool(eval(compile(tree, "<condition>", "eval"), {"__builtins__": {}}, dict(values)))  # noqa: S307
