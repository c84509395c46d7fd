"""The words the pages show, read from content files instead of page code.

One English TOML file per page, ``pages/content/en/<page_id>.toml``::

    title = "3.3.1 Simple self-attention for one query"
    intro = '''Markdown shown under the title.'''
    formula = '''\\omega_{qj} = x^{(q)} \\cdot x^{(j)}'''   # optional, LaTeX (never translated)
    [text]
    scores_title = "Scores ω({q}, j) for query “{token}”"   # str.format, named fields
    [questions.score]                                        # Check yourself (ui/check/questions.py)
    prompt = "ω({q},1), the score of “{token}” against “{first}”?"
    tolerance = 0.005                                        # numbers are never translated
    feedback_weight = "Not yet: your {given} is the weight, not the score."

and ``_app.toml`` in the same folder for app-wide words (its own ``[text]`` table).
English is the source. Other languages are gettext catalogs (ui/words/i18n.py): every string
is looked up there with the page id as its context, and a string the catalog lacks
stays English, one string at a time. Structure (which keys, steps and questions a page
has, tolerances, formulas) is set once, here, for every language.
Plain Python (no Streamlit), so it can be tested on its own.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from . import i18n

__all__ = [
    "APP_FILE", "CONTENT_ROOT", "DEFAULT_LANG", "PageText", "QuestionText", "StepText", "app_text", "clear_cache",
    "follow_language", "label_number", "load_page_text", "page_text", "reader_number",
]

CONTENT_ROOT = Path(__file__).resolve().parents[2] / "pages" / "content"
DEFAULT_LANG = i18n.DEFAULT_LANG
APP_FILE = "_app"  # app-wide words: not a page id (page ids never start with "_")

_PAGE_KEYS = {"title", "intro", "idea", "formula", "text", "steps", "questions", "notebook"}


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
        return _filled(self.strings, key, values, f"question {self.question_id!r}")


@dataclass(frozen=True)
class PageText:
    """One page's words in one language (each string translated; English where a catalog lacks it)."""

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
    # "Open as a notebook": the markdown before each cell of the page's book code (ui/sharing/notebook.py)
    notebook: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __call__(self, key: str, /, **values: Any) -> str:
        """The ``[text]`` entry ``key``, with its ``{named}`` fields filled from ``values``."""
        return _filled(self.strings, key, values, f"page {self.page_id!r} (language {self.lang!r})",
                       i18n.decimal_comma(self.lang))


def _filled(strings: Mapping[str, str], key: str, values: Mapping[str, Any], owner: str,
            decimal_comma: bool = False) -> str:
    """The template ``key`` filled. In a language that writes a decimal comma, a field that is one
    number ("0.9544") reads 0,9544 in the prose; in a `code span` it stays as Python writes it."""
    try:
        template = strings[key]
    except KeyError:
        raise KeyError(f"{owner} has no text {key!r}") from None
    if decimal_comma:
        values = i18n.reader_fields(template, values)
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


def _strings(data: Mapping[str, Any], path: Path, table_name: str = "text") -> dict[str, str]:
    table = data.get(table_name, {})
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise ValueError(f"{path}: [{table_name}] must map keys to strings")
    return dict(table)


def _optional_str(data: Mapping[str, Any], key: str, path: Path) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{path}: {key} must be a string")
    return value


Translate = Callable[[str, str, str], str]  # (message, lang, context) -> message in lang


def load_page_text(page_id: str, lang: str = DEFAULT_LANG, *, root: Path | None = None,
                   translate: Translate | None = None) -> PageText:
    """Read a page's words (or the app-wide ``_app`` words) in ``lang``; not cached.

    ``root`` defaults to the app's content folder, which holds the English files;
    ``translate`` turns each English string into ``lang`` (the gettext catalogs by default).
    """
    root = CONTENT_ROOT if root is None else root
    translate = i18n.translate if translate is None else translate
    path = root / DEFAULT_LANG / f"{page_id}.toml"
    data = _read(path)
    if data is None:
        raise FileNotFoundError(f"no English content for page {page_id!r}: {path} is missing")
    allowed = {"text"} if page_id == APP_FILE else _PAGE_KEYS
    unknown = set(data) - allowed
    if unknown:
        raise ValueError(f"{path}: unknown keys {sorted(unknown)} (expected {sorted(allowed)})")
    fields = {key: _optional_str(data, key, path) for key in ("title", "intro", "formula", "idea")}
    if page_id != APP_FILE and not (fields["title"] and fields["intro"]):
        raise ValueError(f"{path}: a non-empty title and intro are required")

    def tr(text: str) -> str:  # one string in ``lang``, English where there is no translation
        return text if lang == DEFAULT_LANG else translate(text, lang, page_id) or text

    strings = {key: tr(value) for key, value in _strings(data, path).items()}
    steps = tuple(StepText(s.name, tr(s.caption), s.formula) for s in _steps(data.get("steps", {}), path))
    questions = {q.question_id: QuestionText(q.question_id, MappingProxyType({k: tr(v) for k, v in q.strings.items()}),
                                             q.tolerance)
                 for q in _questions(data.get("questions", {}), path)}
    notebook = {key: tr(value) for key, value in _strings(data, path, "notebook").items()}
    idea = fields["idea"]
    return PageText(page_id, lang, tr(fields["title"] or ""), tr(fields["intro"] or ""), fields["formula"],
                    MappingProxyType(strings), idea and tr(idea), steps, MappingProxyType(questions),
                    MappingProxyType(notebook))


def _steps(table: Any, path: Path) -> list[StepText]:
    """A file's [steps.<name>] tables, in order."""
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [steps] must be a table of [steps.<name>] tables")
    steps = []
    for name, entry in table.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("caption"), str):
            raise ValueError(f"{path}: [steps.{name}] needs a caption string")
        steps.append(StepText(name, entry["caption"], _optional_str(entry, "formula", path)))
    return steps


def _questions(table: Any, path: Path) -> list[QuestionText]:
    """A file's [questions.<id>] tables: each question's words and its tolerance."""
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [questions] must be a table of [questions.<id>] tables")
    questions = []
    for qid, entry in table.items():
        if not isinstance(entry, dict):
            raise ValueError(f"{path}: [questions.{qid}] must be a table")
        tolerance = entry.get("tolerance")
        if tolerance is not None and (isinstance(tolerance, bool) or not isinstance(tolerance, int | float)
                                      or not tolerance >= 0):
            raise ValueError(f"{path}: [questions.{qid}] tolerance must be a number >= 0")
        words = {k: v for k, v in entry.items() if k != "tolerance"}
        if not all(isinstance(v, str) for v in words.values()):
            raise ValueError(f"{path}: [questions.{qid}] must map keys to strings (and tolerance to a number)")
        if not words.get("prompt", "").strip():
            raise ValueError(f"{path}: [questions.{qid}] needs a prompt")
        questions.append(QuestionText(qid, MappingProxyType(words), None if tolerance is None else float(tolerance)))
    return questions


def _english() -> str:
    return DEFAULT_LANG


_language_source: Callable[[], str] = _english


def follow_language(source: Callable[[], str]) -> None:
    """Make ``page_text`` and ``app_text`` called without a ``lang`` speak ``source()``.

    The app passes the session's language (ui/state.py); plain Python gets English.
    """
    global _language_source
    _language_source = source


@cache
def _page_text(page_id: str, lang: str) -> PageText:
    return load_page_text(page_id, lang)


def clear_cache() -> None:
    """Forget the words read so far (tests that change the content folder or the catalogs)."""
    _page_text.cache_clear()


def page_text(page_id: str, lang: str | None = None) -> PageText:
    """A page's words in ``lang`` (default: the current language), read once per process."""
    return _page_text(page_id, lang or _language_source())


def reader_number(value: float, spec: str = ".4f", lang: str | None = None) -> str:
    """A number a chart or a sentence shows, as the reader's language writes it: 0.9544, or 0,9544 in id and vi."""
    return str(i18n.in_convention(format(value, spec), i18n.decimal_comma(lang or _language_source())))


def label_number(value: float, lang: str | None = None) -> str:
    """A number written in a chart's cell or on its bar: four decimals, as PyTorch prints them, or from 10,000 on
    four significant digits and a power of ten, 9.998e7, which fits a cell that 99980000.0000 overflowed.
    In the reader's convention: 9,998e7 in id and vi."""
    if not abs(value) >= 1e4 or value in (float("inf"), float("-inf")):
        return reader_number(value, ".4f", lang)
    mantissa, exponent = format(value, ".3e").split("e")
    return f"{i18n.in_convention(mantissa, i18n.decimal_comma(lang or _language_source()))}e{int(exponent)}"


def app_text(key: str, lang: str | None = None, **values: Any) -> str:
    """An app-wide string from ``_app.toml`` (page title, navigation groups, …), formatted with ``values``."""
    return page_text(APP_FILE, lang)(key, **values)
