"""The teaching guide in every language: the English guide's paragraphs as a gettext catalog per language.

``docs/teaching.md`` is the source. mdpo (a Markdown-to-PO tool) cuts it into blocks: each heading,
paragraph, list item and table cell is one message, its markup kept (``**bold**``, ``*italic*``,
```code```, links). ``docs/locales/teaching.<lang>.po`` holds a language's translations, and
``docs/teaching.<lang>.md`` is generated from the English guide and that catalog, so a paragraph added
in English shows up as an untranslated message and, until it is translated, in English in the guide.
``python -m ui.catalog guides`` merges and generates; ``python -m ui.catalog check`` checks the guides'
catalogs with the app's own check (missing, fuzzy, stale, the glossary) and, here, two things only a guide
has: a UI name it quotes must be written as the app writes it (:func:`name_problems`), and the generated
guide must be the one its catalog makes (:func:`outdated`).

This module needs mdpo (requirements-dev.txt); the app never imports it.
"""

from __future__ import annotations

import math
import re
import tempfile
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from .glossary import glossary_path
from .i18n import DEFAULT_LANG, LANGUAGES, LOCALES, catalog_path

__all__ = ["GUIDE", "TRANSLATED", "AppNames", "app_names", "guide_path", "name_problems", "outdated", "po_path",
           "check", "read", "render", "template", "ui_names", "write"]

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "teaching.md"
CATALOGS = ROOT / "docs" / "locales"
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != DEFAULT_LANG)
_BLOCK = re.compile(r"block (\d+) \((.+)\)")


def po_path(lang: str) -> Path:
    return CATALOGS / f"teaching.{lang}.po"


def guide_path(lang: str) -> Path:
    return GUIDE.with_name(f"teaching.{lang}.md")


def _blocks(markdown: str | Path) -> list[tuple[str, int, str]]:
    """(message, block number, block kind) of each block mdpo extracts, in the guide's order."""
    from mdpo.md2po import markdown_to_pofile

    found = []
    for entry in markdown_to_pofile(str(markdown), wrapwidth=math.inf, location=True, include_codeblocks=True):
        where = _BLOCK.search(entry.occurrences[0][1] if entry.occurrences else "")
        found.append((entry.msgid, int(where.group(1)) if where else 0, where.group(2) if where else "block"))
    return found


def template(markdown: Path = GUIDE) -> Catalog:
    """The guide's messages: one per block, which block of the guide it is (number and kind) as a comment."""
    catalog = Catalog(project="attention-chapter-3 teaching guide", fuzzy=False,
                      creation_date=datetime(2026, 1, 1, tzinfo=UTC))
    name = str(markdown.relative_to(ROOT)) if markdown.is_relative_to(ROOT) else markdown.name
    for text, number, kind in _blocks(markdown):
        catalog.add(text, auto_comments=[f"{name}, block {number} ({kind})"])
    return catalog


def render(catalog: Catalog, markdown: Path = GUIDE) -> str:
    """The guide in the catalog's language: every translated, non-fuzzy message in place of its English block.

    A message without a translation, or a fuzzy one (its English changed since), stays in English: a reader
    gets the current English, never an outdated translation. Lines are not wrapped (a break inside a Korean
    word would render as a space)."""
    import polib
    from mdpo.po2md import pofile_to_markdown

    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for message in catalog:
        if message.id and message.string and not message.fuzzy:
            po.append(polib.POEntry(msgid=message.id, msgstr=message.string))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "guide.po"
        po.save(str(path))
        text = pofile_to_markdown(str(markdown), str(path), wrapwidth=math.inf)
    return text if text.endswith("\n") else text + "\n"


def read(lang: str, path: Path | None = None) -> Catalog:
    path = po_path(lang) if path is None else path
    if not path.exists():
        return Catalog(locale=lang)
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def write(lang: str) -> Path:
    """Generate ``docs/teaching.<lang>.md`` from the English guide and the language's catalog."""
    guide_path(lang).write_text(render(read(lang)), encoding="utf-8")
    return guide_path(lang)


def check(lang: str, app_check, source: Catalog | None = None):
    """The guide's catalog in ``lang`` through ``app_check``, the app's catalog check (:func:`ui.catalog.check`,
    passed in: ui.catalog sits above ui.words), against the language's glossary; then what only a guide can get
    wrong, in its ``names``: a UI name it quotes not written as the app writes it, its page not generated."""
    found = app_check(lang, template() if source is None else source, po_path(lang), glossary_path(LOCALES, lang))
    catalog = read(lang)
    found.names = name_problems(catalog, app_names(read(lang, catalog_path(lang)))) + outdated(lang, catalog)
    return found


def outdated(lang: str, catalog: Catalog) -> list[str]:
    """``docs/teaching.<lang>.md`` if it is not what its catalog and the English guide generate."""
    path = guide_path(lang)
    if not path.exists() or path.read_text(encoding="utf-8") != render(catalog):
        return [f"{path.relative_to(ROOT)} is not generated from its catalog: run python -m ui.catalog guides"]
    return []


# ----- UI names: what a guide quotes from the screen is written as the screen writes it ----------------------

_SPANS = (re.compile(r"\*\*(.+?)\*\*"), re.compile(r"(?<![*\w])\*(?!\*)(.+?)(?<!\*)\*(?![*\w])"),
          re.compile(r'"([^"\n]+)"'), re.compile(r"“([^”\n]+)”"))
_FIELD = re.compile(r"\{(\w+)(?:[:!][^{}]*)?\}")


def _plain(text: str) -> str:
    return " ".join(text.split())


def ui_names(text: str) -> list[str]:
    """The spans a guide message sets off as a name: bold, italic, or in double quotes."""
    text = _plain(text)
    return [m.group(1) for pattern in _SPANS for m in pattern.finditer(text)]


def _pattern(msgid: str) -> re.Pattern:
    """A template as a regular expression: each field any text, a field named twice the same text twice."""
    parts, seen = _FIELD.split(msgid), set()
    for k in range(1, len(parts), 2):
        name, parts[k] = parts[k], f"(?P={parts[k]})" if parts[k] in seen else f"(?P<{parts[k]}>.+?)"
        seen.add(name)
    return re.compile("".join(re.escape(p) if k % 2 == 0 else p for k, p in enumerate(parts)))


class AppNames:
    """The app's messages (msgid -> every msgstr it has in any context), exact and as templates.

    A template's ``{fields}`` match any words ("Step {k} of {n}" matches "Step k of n" and "Step 3 of 33"), and
    what a field matched is put into the translation, itself translated when it is an app message too."""

    def __init__(self, pairs: Iterable[tuple[str, str]]):
        self.exact: dict[str, set[str]] = {}
        self.templates: list[tuple[re.Pattern, set[str]]] = []
        by_id: dict[str, set[str]] = {}
        for msgid, msgstr in pairs:
            if msgid and msgstr:
                by_id.setdefault(_plain(msgid), set()).add(_plain(msgstr))
        for msgid, strings in by_id.items():
            if not _FIELD.search(msgid):
                self.exact[msgid] = strings
            elif re.search(r"[A-Za-z]{2,}", _FIELD.sub("", msgid)):  # "{a}: {b}" alone would match anything
                self.templates.append((_pattern(msgid), strings))

    def translations(self, name: str, depth: int = 0) -> set[str]:
        """How the app writes ``name`` in the catalog's language (empty: ``name`` is not an app message)."""
        for candidate in dict.fromkeys((name, name.rstrip(".:"))):
            if candidate in self.exact:
                return self.exact[candidate]
            for pattern, strings in self.templates:
                match = pattern.fullmatch(candidate)
                if match:
                    values = {k: (sorted(self.translations(v, depth + 1)) or [v])[0] if depth < 2 else v
                              for k, v in match.groupdict().items()}
                    return {_fill(s, values) for s in strings}
        return set()


def _fill(template: str, values: dict[str, str]) -> str:
    return _FIELD.sub(lambda f: values.get(f.group(1), f.group(0)), template)


def app_names(catalog: Catalog) -> AppNames:
    return AppNames((m.id, m.string) for m in catalog if isinstance(m.id, str) and not m.fuzzy)


def name_problems(guide: Catalog, names: AppNames) -> list[str]:
    """Each guide message whose translation does not write a UI name it quotes (an app message) as the app's
    translation of it does."""
    found = []
    for message in guide:
        if not (message.id and message.string) or message.fuzzy:
            continue
        translated = _plain(message.string)
        for name in ui_names(message.id):
            wanted = names.translations(name)
            if wanted and not any(w in translated for w in wanted):
                found.append(f"{message.id[:50]!r}: {name!r} is {' / '.join(sorted(wanted))!r} in the app")
    return found
