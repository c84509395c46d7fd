"""Keep the translation catalogs in step with the English source, using Babel.

    python -m ui.catalog extract   # write locales/messages.pot from the English source
    python -m ui.catalog update [LANG...]  # merge it into locales/<lang>/LC_MESSAGES/messages.po
    python -m ui.catalog check [LANG...]   # exit 1 if a catalog lacks a string, has a stale one, drops a {field},
                                           # breaks its glossary (locales/<lang>/glossary.toml) or its plural header
    python -m ui.catalog guides [LANG...]  # the teaching guide's catalogs and pages (ui/words/guide.py); check too

What the English source says, and where, is ui/catalog_sources.py's.
"""

from __future__ import annotations

import string
import sys
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from .catalog_sources import CONTENT, ERROR_CLASSES, ROOT, source_messages
from .words import glossary, guide
from .words.i18n import DEFAULT_LANG, LANGUAGES, LOCALES, catalog_path

__all__ = ["CONTENT", "ERROR_CLASSES", "Problems", "check", "extract", "guides", "source_catalog", "source_messages",
           "update"]

TEMPLATE = LOCALES / "messages.pot"
# CLDR: Indonesian, Vietnamese and Korean have one plural form (Babel's table says two for Indonesian).
PLURAL_FORMS = {"id": "nplurals=1; plural=0;", "vi": "nplurals=1; plural=0;", "ko": "nplurals=1; plural=0;"}


def source_catalog() -> Catalog:
    """The template catalog (what ``messages.pot`` holds)."""
    catalog = Catalog(project="attention-chapter-3", fuzzy=False, creation_date=datetime(2026, 1, 1, tzinfo=UTC))
    for m in source_messages():
        catalog.add(m.text, context=m.context, locations=[(m.path, m.line)],
                    auto_comments=[m.comment] if m.comment else (),
                    flags=("python-brace-format",) if _fields(m.text) else ())
    return catalog


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, ignore_obsolete=True, sort_by_file=False, omit_header=False)


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def extract() -> Path:
    _write(source_catalog(), TEMPLATE)
    return TEMPLATE


def _langs(chosen: list[str]) -> list[str]:
    unknown = set(chosen) - set(LANGUAGES)
    if unknown:
        raise SystemExit(f"unknown languages {sorted(unknown)}; the app has {sorted(LANGUAGES)}")
    return [lang for lang in (chosen or LANGUAGES) if lang != DEFAULT_LANG]


def update(langs: list[str] | None = None, template: Catalog | None = None, path_of=catalog_path) -> list[Path]:
    """Merge the template into the languages' catalogs; new strings come in empty, changed ones fuzzy."""
    template = source_catalog() if template is None else template
    written = []
    for lang in _langs(langs or []):
        path = path_of(lang)
        catalog = _read(path, lang) if path.exists() else Catalog(locale=lang, project=template.project)
        catalog.update(template, update_header_comment=False)
        catalog.fuzzy = False  # the header: a catalog in the repository is reviewed, not a draft
        catalog.mime_headers = [(k, _headers(lang).get(k, v)) for k, v in catalog.mime_headers]
        _write(catalog, path)
        written.append(path)
    return written


def guides(langs: list[str] | None = None) -> list[Path]:
    """Merge the English teaching guide into each language's guide catalog, and write that language's guide."""
    langs = _langs(langs or [])
    return update(langs, guide.template(), guide.po_path) + [guide.write(lang) for lang in langs]


def _headers(lang: str) -> dict[str, str]:
    """The header lines a catalog of ``lang`` carries (Babel's defaults are placeholders)."""
    return {"Project-Id-Version": "attention-chapter-3 1.0", "Report-Msgid-Bugs-To": "the project's issue tracker",
            "Last-Translator": "attention-chapter-3 translators", "Language-Team": LANGUAGES[lang],
            **({"Plural-Forms": PLURAL_FORMS[lang]} if lang in PLURAL_FORMS else {})}


def _fields(text: str) -> set[str]:
    """The ``{named}`` fields of a str.format template (empty for text without fields)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:
        return set()


@dataclass
class Problems:
    missing: list[str]  # in the English source, not translated (absent, empty or fuzzy)
    stale: list[str]  # in the catalog, no longer in the English source
    fields: list[str]  # translated, with other {fields} than the English
    glossary: list[str] = field(default_factory=list)  # against locales/<lang>/glossary.toml (ui/words/glossary.py)
    header: list[str] = field(default_factory=list)  # a wrong Plural-Forms
    names: list[str] = field(default_factory=list)  # a guide's: a UI name not as the app writes it, the .md outdated

    def __bool__(self) -> bool:
        return bool(self.missing or self.stale or self.fields or self.glossary or self.header or self.names)


def _label(context: str | None, text: str) -> str:
    return f"[{context}] {text[:70]!r}" if context else repr(text[:70])


def check(lang: str, template: Catalog | None = None, path: Path | None = None,
          terms_file: Path | None = None) -> Problems:
    """What ``lang``'s catalog lacks, has in excess, or translates with the wrong fields (``terms_file``: a guide's)."""
    template = source_catalog() if template is None else template
    path = catalog_path(lang) if path is None else path
    # locales/<lang>/LC_MESSAGES/messages.po: its glossary is locales/<lang>/glossary.toml
    terms_file = glossary.glossary_path(path.parents[2], lang) if terms_file is None else terms_file
    catalog = _read(path, lang) if path.exists() else Catalog(locale=lang)
    wanted = {(m.context, m.id) for m in template if m.id}
    have = {(m.context, m.id): m for m in catalog if m.id}
    missing = [_label(*key) for key in wanted if key not in have or not have[key].string or have[key].fuzzy]
    stale = [_label(*key) for key in have if key not in wanted]
    stale += [_label(m.context, m.id) for m in catalog.obsolete.values()]
    fields = [_label(*key) for key in wanted & have.keys()
              if have[key].string and _fields(have[key].string) != _fields(key[1])]
    return Problems(sorted(missing), sorted(stale), sorted(fields), _glossary(catalog, wanted, terms_file),
                    _header(lang, catalog))


def _glossary(catalog: Catalog, wanted: set, terms_file: Path) -> list[str]:
    """The catalog's translations against its language's glossary."""
    if not terms_file.exists():
        return [f"no glossary: {terms_file.relative_to(ROOT) if terms_file.is_relative_to(ROOT) else terms_file}"]
    try:
        terms, mark = glossary.load(terms_file), glossary.decimal_mark(terms_file)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        return [str(exc)]
    entries = [(_label(m.context, m.id), m.id, m.string, list(m.user_comments)) for m in catalog
               if m.id and m.string and (m.context, m.id) in wanted]
    return glossary.problems(terms, entries) + glossary.number_problems(mark, entries)


def _header(lang: str, catalog: Catalog) -> list[str]:
    plural = dict(catalog.mime_headers).get("Plural-Forms", "")
    want = PLURAL_FORMS.get(lang)
    return [f"Plural-Forms is {plural!r}, {want!r} for {lang}"] if want and plural != want else []


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        print(f"wrote {extract().relative_to(ROOT)} ({len(source_catalog())} strings)")
        return 0
    if command == "update":
        extract()
        for path in update(argv[1:]):
            print(f"updated {path.relative_to(ROOT)}")
        return 0
    if command == "guides":
        for path in guides(argv[1:]):
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    if command == "check":
        template, blocks, failed = source_catalog(), guide.template(), False
        for lang in _langs(argv[1:]):
            for name, problems in ((lang, check(lang, template)), (f"{lang} guide", guide.check(lang, check, blocks))):
                print(f"{name}: {len(problems.missing)} missing, {len(problems.stale)} stale, {len(problems.fields)} "
                      f"with other {{fields}}, {len(problems.glossary)} against the glossary, {len(problems.names)} "
                      f"other{', ' + problems.header[0] if problems.header else ''}")
                for kind in ("missing", "stale", "fields", "glossary", "names"):
                    for label in getattr(problems, kind)[:40]:
                        print(f"  {kind}: {label}")
                failed |= bool(problems)
        return 1 if failed else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
