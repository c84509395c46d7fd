"""Each language's glossary: the word its catalog uses for each term of the chapter, enforced.

``locales/<lang>/glossary.toml`` is a plain file a translator reads: an array of ``[[term]]`` tables,

    en = ["causal"]      # the English term and its forms (whole words, any case)
    use = ["인과"]        # its translation; the first is the standard form
    keep = ["causal"]    # forms kept in English on purpose (accepted too)
    forbid = ["코잘"]     # variants that must appear nowhere in the catalog
    note = "why"

:func:`problems` finds, in a catalog's translations: a forbidden variant; a string whose English
prose has the term but whose translation has none of its ``use`` or ``keep`` forms; and a term the
catalog renders in two ways, where a string uses another form than the standard one without a
translator comment (``# glossary: ...``) saying why. Prose means the text without ``code spans``,
``{fields}``, ``$math$`` and ``:material/icons:``. A string whose translator comment starts with
``glossary:`` and names the term is exempt for that term. ``python -m ui.catalog check`` runs this.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Term", "decimal_mark", "glossary_path", "load", "number_problems", "problems", "prose"]

_NOT_PROSE = re.compile(r"`[^`]*`|\{[^{}]*\}|\$[^$]*\$|:material/[a-z_]+:")


@dataclass(frozen=True)
class Term:
    en: tuple[str, ...]
    use: tuple[str, ...]
    keep: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    note: str = ""

    @property
    def name(self) -> str:
        return self.en[0]

    def in_english(self, text: str) -> bool:
        return any(re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.IGNORECASE) for form in self.en)

    def rendering(self, text: str) -> str | None:
        """The ``use`` form a translation renders the term with (the first found), else None."""
        lowered = text.lower()
        return next((form for form in self.use if form.lower() in lowered), None)

    def kept(self, text: str) -> bool:
        lowered = text.lower()
        return any(form.lower() in lowered for form in self.keep)


def glossary_path(locales: Path, lang: str) -> Path:
    return locales / lang / "glossary.toml"


def load(path: Path) -> list[Term]:
    """The glossary's terms; a malformed file raises ValueError saying where."""
    with path.open("rb") as f:
        data = tomllib.load(f)
    terms = []
    for i, table in enumerate(data.get("term", [])):
        try:
            term = Term(en=tuple(table["en"]), use=tuple(table["use"]), keep=tuple(table.get("keep", ())),
                        forbid=tuple(table.get("forbid", ())), note=str(table.get("note", "")))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{path}: term {i + 1} lacks or misspells {exc}") from None
        if not term.en or not term.use or not all(isinstance(x, str) and x for x in term.en + term.use + term.forbid):
            raise ValueError(f"{path}: term {i + 1} needs non-empty strings in en and use")
        terms.append(term)
    return terms


def prose(text: str) -> str:
    """The words of a string, without its code spans, {fields}, $math$ and icons."""
    return _NOT_PROSE.sub(" ", text)


def _exempt(comments: Iterable[str], term: Term) -> bool:
    return any(c.strip().lower().startswith("glossary:") and term.name.lower() in c.lower() for c in comments)


def problems(terms: list[Term], entries: Iterable[tuple[str, str, str, list[str]]]) -> list[str]:
    """Glossary problems in ``entries`` (label, English, translation, translator comments)."""
    found: list[str] = []
    rendered: dict[str, list[tuple[str, str]]] = {}  # term -> (label, form) of each string rendering it
    for label, english, translated, comments in entries:
        english, translated = prose(english), prose(translated)
        for term in terms:
            if _exempt(comments, term):
                continue
            bad = [variant for variant in term.forbid if variant.lower() in translated.lower()]
            if bad:
                found.append(f"{label}: forbidden {bad[0]!r} for {term.name!r} (glossary: {term.use[0]!r})")
                continue
            if not term.in_english(english):
                continue
            form = term.rendering(translated)
            if form is None and not term.kept(translated):
                found.append(f"{label}: {term.name!r} is not rendered as {' / '.join(term.use + term.keep)!r}")
            elif form is not None:
                rendered.setdefault(term.name, []).append((label, form))
    for term in terms:
        uses = rendered.get(term.name, [])
        if len({form for _, form in uses}) > 1:
            found += [f"{label}: {term.name!r} rendered as {form!r}, elsewhere {term.use[0]!r}; say why "
                      "in a translator comment (# glossary: ...)" for label, form in uses if form != term.use[0]]
    return found


def decimal_mark(path: Path) -> str | None:
    """The glossary's number rule, ``[numbers] decimal = ","``: the mark a lone number in prose is written with."""
    with path.open("rb") as f:
        mark = tomllib.load(f).get("numbers", {}).get("decimal")
    if mark not in (None, ",", "."):
        raise ValueError(f"{path}: [numbers] decimal is {mark!r}; write \",\" or \".\"")
    return mark


# A number written with a decimal point: two or more decimals (0.95, 1.8524), or a leading 0 (0.5). Section numbers
# (3.5.1, 3.3) and thousands groups (2.360.064) are not. A printed list or tensor keeps Python's points.
_POINT_NUMBER = re.compile(r"(?<![\d.,])(?:0\.\d+|\d+\.\d{2,})(?![\d.,])")
_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3})+")
_PRINTED = re.compile(r"\[[^\]]*\]|tensor\([^)]*\)")


def number_problems(mark: str | None, entries: Iterable[tuple[str, str, str, list[str]]]) -> list[str]:
    """Where a catalog whose numbers take a decimal comma writes a lone number in prose with a point ("1.8524" beside
    prose that writes 0,9544; a Vietnamese or Indonesian reader takes it for a thousands group)."""
    if mark != ",":
        return []
    found = []
    for label, _english, translated, comments in entries:
        if any(c.strip().lower().startswith("glossary: number") for c in comments):
            continue
        text = _PRINTED.sub(" ", prose(translated))
        bad = [n for n in _POINT_NUMBER.findall(text) if not _GROUPED.fullmatch(n)]
        if bad:
            found.append(f"{label}: {bad[0]!r} has a decimal point; this language writes {bad[0].replace('.', ',')!r}")
    return found
