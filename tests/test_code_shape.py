"""The house rules that keep the teaching code readable, checked on the source itself.

- No function in attention/, ui/, pages/ or app.py is longer than 50 lines: a longer one hides
  the math a learner is shown behind bookkeeping, and is split into named steps.
- Library code never prints (a class that prints inside ``forward`` is one of the seeds' mistakes).
- The lecture package (ui/lecture/) is held to the same plainness as attention/: no module over 300 lines,
  no function over 40.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 50
LECTURE_MODULE_LINES, LECTURE_FUNCTION_LINES = 300, 40
LECTURE = sorted(ROOT.glob("ui/lecture/*.py"))
SOURCES = sorted([*ROOT.glob("attention/*.py"), *ROOT.glob("ui/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"])


def long_functions(source: str, limit: int = LIMIT) -> list[tuple[str, int]]:
    """(name, lines) of every function or method in ``source`` longer than ``limit`` lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = node.end_lineno - first + 1
            if length > limit:
                found.append((node.name, length))
    return found


def prints(source: str) -> list[int]:
    """Line numbers of every call to print() in ``source``."""
    return [n.lineno for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_function_is_longer_than_50_lines(path):
    assert long_functions(path.read_text(encoding="utf-8")) == [], f"{path.relative_to(ROOT)}: split into named steps"


@pytest.mark.parametrize("path", sorted(ROOT.glob("attention/*.py")), ids=lambda p: p.name)
def test_library_code_never_prints(path):
    assert prints(path.read_text(encoding="utf-8")) == [], f"attention/{path.name} prints"


def test_the_length_check_finds_a_long_function():
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    assert long_functions(f"def short():\n    return 1\n\n@decorated\ndef long():\n{body}\n") == [("long", LIMIT + 2)]
    assert long_functions(f"def exact():\n{body[: body.rfind(chr(10))]}\n") == []


def test_the_print_check_finds_a_print_in_a_method():
    assert prints("class A:\n    def forward(self, x):\n        print(x)\n        return x\n") == [3]


@pytest.mark.parametrize("path", LECTURE, ids=lambda p: p.name)
def test_the_lecture_package_stays_plain(path):
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= LECTURE_MODULE_LINES, f"ui/lecture/{path.name}: split it by what it does"
    assert long_functions(source, LECTURE_FUNCTION_LINES) == [], f"ui/lecture/{path.name}: split into named steps"


def test_the_lecture_packages_docstring_maps_every_module():
    import ui.lecture

    modules = {p.stem for p in LECTURE if p.stem != "__init__"}
    missing = {m for m in modules if f"``{m}``" not in (ui.lecture.__doc__ or "")}
    assert not missing, f"ui/lecture/__init__.py does not say what these are: {sorted(missing)}"
