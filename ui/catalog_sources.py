"""What the English source says: every message the translation catalogs hold (ui/catalog.py keeps them in step).

The content files (``pages/content/en/*.toml``: the page id is the gettext context, the key path a comment for
translators; formulas are LaTeX and not translated), the bundled walkthrough's title and notes (context
``WALK_CONTEXT``), the literal template of every :class:`attention.errors.Explained` error raised in the code, and
the words of the package's traces (step meanings, and the strings it marks with :func:`attention.words.said`).
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.extract import extract_from_dir

from .lecture.walkthrough import BUNDLED, load_bundled
from .words.i18n import DEFAULT_LANG, WALK_CONTEXT

__all__ = ["CONTENT", "ERROR_CLASSES", "ROOT", "Message", "source_messages"]

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "pages" / "content" / DEFAULT_LANG
CODE_DIRS = ("attention", "ui", "pages")
# Error classes whose first argument is an English template (attention.errors.Explained and its subclasses).
ERROR_CLASSES = ("ExplainedValueError", "ExplainedTypeError", "InputError", "LinkError", "NotebookError",
                 "WalkthroughError", "ExplorationError")
UNTRANSLATED_KEYS = {"formula"}  # LaTeX: the same in every language


@dataclass(frozen=True)
class Message:
    text: str
    context: str | None
    path: str  # where it is written, for the translator
    line: int | None
    comment: str = ""


def _key_lines(path: Path) -> dict[str, int]:
    """Line numbers of ``key =`` lines, keyed by dotted path (good enough to point a translator)."""
    lines: dict[str, int] = {}
    table = ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        header = re.match(r"\s*\[+([^\]]+)\]+\s*$", line)
        if header:
            table = header.group(1).strip()
            continue
        key = re.match(r"\s*([A-Za-z0-9_\-]+)\s*=", line)
        if key:
            lines.setdefault(f"{table}.{key.group(1)}" if table else key.group(1), number)
    return lines


def _walk(table: dict, prefix: str = "") -> Iterator[tuple[str, str]]:
    for key, value in table.items():
        dotted = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            yield from _walk(value, dotted)
        elif isinstance(value, str) and key not in UNTRANSLATED_KEYS and value.strip():
            yield dotted, value


def _content_messages() -> Iterator[Message]:
    for path in sorted(CONTENT.glob("*.toml")):
        lines = _key_lines(path)
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for dotted, text in _walk(data):
            yield Message(text, path.stem, str(path.relative_to(ROOT)), lines.get(dotted, 1), dotted)


def _walkthrough_messages() -> Iterator[Message]:
    walk, where = load_bundled(), str(BUNDLED.relative_to(ROOT))
    if walk.title:
        yield Message(walk.title, WALK_CONTEXT, where, None, "title")
    for k, step in enumerate(walk.steps, start=1):
        if step.note:
            yield Message(step.note, WALK_CONTEXT, where, None, f"step {k}: {step.page} / {step.step}")


def _code_messages() -> Iterator[Message]:
    keywords = {name: None for name in ERROR_CLASSES}  # None: the first argument is the message
    for folder in CODE_DIRS:
        found = extract_from_dir(ROOT / folder, method_map=[("**.py", "python")], keywords=keywords,
                                 comment_tags=("TRANSLATORS:",))
        for filename, lineno, text, comments, context in found:
            yield Message(text, context, f"{folder}/{filename}", lineno, " ".join(comments))


def _trace_messages() -> Iterator[Message]:
    """The words of the package's traces: each step's meaning (``trace.add``'s 4th argument, or
    :data:`attention.trace.STEP_MEANINGS`; formulas and code, no two words in a row, stay as they are), and every
    string the package marks with :func:`attention.words.said` (a compared method's label, an efficient variant's
    name and what it does), whatever it looks like."""
    from attention.trace import STEP_MEANINGS

    for meaning in STEP_MEANINGS.values():
        yield Message(meaning, None, "attention/trace.py", None, "the meaning of a step")
    for path in sorted((ROOT / "attention").glob("*.py")):
        yield from sorted(_marked_words(path), key=lambda m: m.line or 0)  # in the file's order


def _marked_words(path: Path) -> Iterator[Message]:
    where = str(path.relative_to(ROOT))
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if not isinstance(node, ast.Call):
            continue
        method = _called(node)
        for arg in node.args:  # ast.walk meets a call before its arguments: tell a said() where it is written
            if isinstance(arg, ast.Call) and _called(arg) == "said":
                arg.said_in = method  # type: ignore[attr-defined]
        if method == "said" and node.args and isinstance(node.args[0], ast.Constant):
            yield Message(str(node.args[0].value), None, where, node.lineno, _SAID_KINDS.get(_said_in(node), ""))
            continue
        args = node.args[3:4] if method == "add" else []
        args += [k.value for k in node.keywords if k.arg == "meaning" and method == "add"]
        args += [k.value for k in node.keywords if k.arg == "context_meaning"]  # attend's context step
        for arg in args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and _WORDS.search(arg.value):
                yield Message(arg.value, None, where, node.lineno, "the meaning of a step")


_WORDS = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")  # two words in a row: prose, not a formula
# What a marked string is, for the translator: told by the call it is written in (see _said_in).
_SAID_KINDS = {"compare": "a method the page compares", "Variant": "an efficient variant: its name or how it works",
               None: "an efficient variant's name"}


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _said_in(node: ast.Call) -> str | None:
    """The call a ``said(...)`` is an argument of (``_trace_messages`` notes it), or None (a module's constant)."""
    return getattr(node, "said_in", None)


def source_messages() -> list[Message]:
    """Every English string the app can show, in source order."""
    return [*_content_messages(), *_walkthrough_messages(), *_code_messages(), *_trace_messages()]
