"""The book files (``ui/sharing/book/``, one per page): their cells, cut at the ``# %% <key> [if <condition>]
[-> <step>, ...]`` headers that ui/sharing/notebook.py describes, and the tiny language of a cell's ``if``.

The book's code that several pages need (its classes, the batch pages' settings) is written once, in
``book/pieces.py``, cut by ``# %% <piece> [needs <piece>, ...]`` headers. A line ``# book: <piece>, ...`` in a page's
file stands for those pieces' code, each preceded by the pieces it needs; a piece the page has already had is not
written again, so every notebook holds each class once and stays whole on its own.

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

__all__ = ["BOOK", "PIECES", "Cell", "book_cells", "book_file", "book_pages", "book_pieces", "has_notebook", "holds"]

BOOK = Path(__file__).resolve().parent / "book"
_HEADER = re.compile(r"^# %% (?P<key>[a-z][a-z0-9_]*)(?: if (?P<when>(?:(?! -> ).)+))?(?: -> (?P<prints>.+))?\s*$")
_STEP = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)?$")
_PIECE = re.compile(r"^# %% (?P<name>[A-Za-z_][A-Za-z0-9_]*)(?: needs (?P<needs>[A-Za-z0-9_, ]+))?\s*$")
_USE = re.compile(r"^# book: (?P<names>[A-Za-z0-9_, ]+)$")
PIECES = BOOK / "pieces.py"


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
    for line in [*_with_pieces(path), "# %% end"]:
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


def _with_pieces(path: Path) -> list[str]:
    """The file's lines, each ``# book:`` line replaced by the code of the pieces it names."""
    pieces, had, out = book_pieces(), set(), []
    for line in path.read_text(encoding="utf-8").splitlines():
        use = _USE.match(line)
        if use is None:
            out.append(line)
            continue
        for name in (n.strip() for n in use["names"].split(",") if n.strip()):
            if name not in pieces:
                raise ValueError(f"{path}: no piece of the book is named {name!r}")
            out.extend(_piece_lines(name, pieces, had))
    return out


def _piece_lines(name: str, pieces: Mapping[str, tuple[tuple[str, ...], str]], had: set[str]) -> list[str]:
    """A piece's code, after that of the pieces it needs, leaving out what the page already has."""
    if name in had:
        return []
    had.add(name)
    needs, code = pieces[name]
    lines = [line for need in needs for line in _piece_lines(need, pieces, had)]
    spacing = ["", ""] if code.startswith(("class ", "def ")) else []  # as PEP 8 spaces a definition
    return [*lines, *code.splitlines(), *spacing]


@cache
def book_pieces() -> dict[str, tuple[tuple[str, ...], str]]:
    """Each piece of ``book/pieces.py``: the pieces it needs, and its code."""
    pieces: dict[str, tuple[tuple[str, ...], str]] = {}
    header, lines = None, []
    for line in [*PIECES.read_text(encoding="utf-8").splitlines(), "# %% end"]:
        match = _PIECE.match(line)
        if match is None:
            lines.append(line)
            continue
        if header is not None:
            needs = tuple(n.strip() for n in (header["needs"] or "").split(",") if n.strip())
            if set(needs) - set(pieces):  # a piece needs only those above it, as the file runs top to bottom
                raise ValueError(f"{PIECES}: piece {header['name']!r} needs one that is not above it: {needs}")
            pieces[header["name"]] = (needs, "\n".join(lines).strip("\n"))
        header, lines = match, []
    return pieces


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
