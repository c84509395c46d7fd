"""The words the pages show, read from content files instead of page code.

One TOML file per page and language, ``pages/content/<lang>/<page_id>.toml``::

    title = "3.3.1 Simple self-attention for one query"
    intro = '''Markdown shown under the title.'''
    formula = '''\\omega_{qj} = x^{(q)} \\cdot x^{(j)}'''   # optional, LaTeX
    [text]
    scores_title = "Scores ω({q}, j) for query “{token}”"   # str.format, named fields
    [questions.score]                                        # Check yourself (ui/questions.py)
    prompt = "ω({q},1), the score of “{token}” against “{first}”?"
    tolerance = 0.005                                        # numbers: English only
    feedback_weight = "Not yet: your {given} is the weight, not the score."

and ``_app.toml`` in the same folder for app-wide words (its own ``[text]`` table).
English is complete; another language may leave out keys or whole files, which then
fall back to English. A translation's ``[questions.<id>]`` tables translate the words of
questions the English file has (never a new question, never a tolerance: numbers that
decide whether an answer is right are set once, in English).
Plain Python (no Streamlit), so it can be tested on its own.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

__all__ = [
    "APP_FILE", "CONTENT_ROOT", "DEFAULT_LANG", "PageText", "QuestionText", "StepText", "app_text", "load_page_text",
    "page_text",
]

CONTENT_ROOT = Path(__file__).resolve().parents[1] / "pages" / "content"
DEFAULT_LANG = "en"
APP_FILE = "_app"  # app-wide words: not a page id (page ids never start with "_")

_PAGE_KEYS = {"title", "intro", "idea", "formula", "text", "steps", "questions"}


@dataclass(frozen=True)
class StepText:
    """One step of a page's step-through: the trace step it shows, a caption, and the formula term."""

    name: str  # a trace step, or "<field>.<step>" for a result with several traces
    caption: str
    formula: str | None = None


@dataclass(frozen=True)
class QuestionText:
    """One Check-yourself question's words: its prompt, feedback_*, option_* ... and its tolerance."""

    question_id: str
    strings: Mapping[str, str]  # "prompt" and every other word of the question
    tolerance: float | None = None  # numbers: how far from the answer still counts as right

    def has(self, key: str) -> bool:
        return key in self.strings

    def __call__(self, key: str, /, **values: Any) -> str:
        """The question's string ``key`` (``"prompt"``, ``"feedback_unscaled"``...), its fields filled."""
        try:
            template = self.strings[key]
        except KeyError:
            raise KeyError(f"question {self.question_id!r} has no text {key!r}") from None
        return template.format(**values)


@dataclass(frozen=True)
class PageText:
    """One page's words in one language (English filling any gaps)."""

    page_id: str
    lang: str
    title: str
    intro: str
    formula: str | None
    strings: Mapping[str, str]
    idea: str | None = None  # the page's one-line idea (lecture mode shows it instead of the intro)
    steps: tuple[StepText, ...] = ()  # the step-through, in order
    # Check yourself: the page's questions, in the file's order
    questions: Mapping[str, QuestionText] = field(default_factory=lambda: MappingProxyType({}))

    def __call__(self, key: str, /, **values: Any) -> str:
        """The ``[text]`` entry ``key``, with its ``{named}`` fields filled from ``values``."""
        try:
            template = self.strings[key]
        except KeyError:
            raise KeyError(f"page {self.page_id!r} has no text {key!r} (language {self.lang!r})") from None
        return template.format(**values)


def _read(path: Path) -> dict[str, Any] | None:
    """A content file's table, or None if the file does not exist."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        return None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _strings(data: Mapping[str, Any], path: Path) -> dict[str, str]:
    table = data.get("text", {})
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise ValueError(f"{path}: [text] must map keys to strings")
    return dict(table)


def _optional_str(data: Mapping[str, Any], key: str, path: Path) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{path}: {key} must be a string")
    return value


def load_page_text(page_id: str, lang: str = DEFAULT_LANG, *, root: Path | None = None) -> PageText:
    """Read a page's words (or the app-wide ``_app`` words) from ``root``; not cached.

    ``root`` defaults to the app's content folder. Keys, a title, an intro or a formula
    missing from ``lang`` come from English; a missing ``lang`` file means all English.
    """
    root = CONTENT_ROOT if root is None else root
    allowed = {"text"} if page_id == APP_FILE else _PAGE_KEYS
    base_path = root / DEFAULT_LANG / f"{page_id}.toml"
    base = _read(base_path)
    if base is None:
        raise FileNotFoundError(f"no English content for page {page_id!r}: {base_path} is missing")
    layers = [(base, base_path)]
    if lang != DEFAULT_LANG:
        path = root / lang / f"{page_id}.toml"
        local = _read(path)
        if local is not None:  # a missing translation shows English
            layers.append((local, path))
    fields: dict[str, str | None] = {"title": None, "intro": None, "formula": None, "idea": None}
    strings: dict[str, str] = {}
    steps: dict[str, StepText] = {}
    questions: dict[str, QuestionText] = {}
    for data, path in layers:  # the requested language, read last, wins
        unknown = set(data) - allowed
        if unknown:
            raise ValueError(f"{path}: unknown keys {sorted(unknown)} (expected {sorted(allowed)})")
        for key in fields:
            value = _optional_str(data, key, path)
            if value is not None:
                fields[key] = value
        strings.update(_strings(data, path))
        _merge_steps(steps, data.get("steps", {}), path, first=data is base)
        _merge_questions(questions, data.get("questions", {}), path, first=data is base)
    if page_id != APP_FILE and not (fields["title"] and fields["intro"]):
        raise ValueError(f"{base_path}: a non-empty title and intro are required")
    return PageText(page_id, lang, fields["title"] or "", fields["intro"] or "", fields["formula"],
                    MappingProxyType(strings), fields["idea"], tuple(steps.values()), MappingProxyType(questions))


def _merge_steps(steps: dict[str, StepText], table: Any, path: Path, *, first: bool) -> None:
    """Add a file's [steps.<name>] tables: English sets the order, a translation only its words."""
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [steps] must be a table of [steps.<name>] tables")
    for name, entry in table.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("caption"), str):
            raise ValueError(f"{path}: [steps.{name}] needs a caption string")
        if not first and name not in steps:
            raise ValueError(f"{path}: step {name!r} is not in the English file")
        steps[name] = StepText(name, entry["caption"], _optional_str(entry, "formula", path))


def _merge_questions(questions: dict[str, QuestionText], table: Any, path: Path, *, first: bool) -> None:
    """Add a file's [questions.<id>] tables: English sets the questions and tolerances, a translation words."""
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [questions] must be a table of [questions.<id>] tables")
    for qid, entry in table.items():
        if not isinstance(entry, dict):
            raise ValueError(f"{path}: [questions.{qid}] must be a table")
        if not first and qid not in questions:
            raise ValueError(f"{path}: question {qid!r} is not in the English file")
        if not first and "tolerance" in entry:
            raise ValueError(f"{path}: [questions.{qid}] sets a tolerance; tolerances are set in English only")
        tolerance = entry.get("tolerance", questions[qid].tolerance if qid in questions else None)
        if tolerance is not None and (isinstance(tolerance, bool) or not isinstance(tolerance, int | float)
                                      or not tolerance >= 0):
            raise ValueError(f"{path}: [questions.{qid}] tolerance must be a number >= 0")
        words = {k: v for k, v in entry.items() if k != "tolerance"}
        if not all(isinstance(v, str) for v in words.values()):
            raise ValueError(f"{path}: [questions.{qid}] must map keys to strings (and tolerance to a number)")
        if first and not words.get("prompt", "").strip():
            raise ValueError(f"{path}: [questions.{qid}] needs a prompt")
        merged = {**(questions[qid].strings if qid in questions else {}), **words}
        questions[qid] = QuestionText(qid, MappingProxyType(merged), None if tolerance is None else float(tolerance))


@cache
def page_text(page_id: str, lang: str = DEFAULT_LANG) -> PageText:
    """A page's words, read once per process."""
    return load_page_text(page_id, lang)


def app_text(key: str, lang: str = DEFAULT_LANG, **values: Any) -> str:
    """An app-wide string from ``_app.toml`` (page title, navigation groups, …), formatted with ``values``."""
    return page_text(APP_FILE, lang)(key, **values)
