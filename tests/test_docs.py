"""The README and the pages in docs/ stay true to the repository (plain text checks, no browser).

- Every relative link and image in README.md and docs/*.md points to a file or folder that exists, and
  every ``#anchor`` into a Markdown file names one of its headings, slugged as GitHub slugs them.
- Every ``make <target>`` shown in the README (and in docs/) is a target of the Makefile.
- The README is at most 200 lines, and links to every page in docs/.
- Each page in docs/ (not the translations) opens, right under its title, by saying who it is for.
- Each measured table in docs/performance.md and docs/deploying.md is introduced by a paragraph that
  links the benchmark file holding its decimal numbers, or names the day it was measured.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_README_LINES = 200
MEASURED_PAGES = ("performance.md", "deploying.md")

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", flags=re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", flags=re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)=\"([^\"]+)\"", flags=re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$", flags=re.M)
DECIMAL = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])")
DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")


def markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def english_pages() -> list[Path]:
    """The docs pages, less their translations (``teaching.id.md`` is ``teaching.md`` in Indonesian)."""
    return [p for p in sorted(DOCS.glob("*.md")) if "." not in p.stem]


def without_code(text: str) -> str:
    """The text with fenced blocks dropped and code spans replaced by a word (a link's text may be code)."""
    text = FENCE.sub("", text.replace("\\`", ""))
    return CODE_SPAN.sub("code", text)


def code_of(text: str) -> list[str]:
    """The fenced blocks and code spans of a Markdown text: where commands are shown."""
    text = text.replace("\\`", "")
    blocks = [m.group(0) for m in FENCE.finditer(text)]
    return blocks + [m.group(2) for m in CODE_SPAN.finditer(FENCE.sub("", text))]


def links_of(text: str) -> list[str]:
    plain = without_code(text)
    return [m.group(1) for m in LINK.finditer(plain)] + [m.group(1) for m in HTML_LINK.finditer(plain)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text, lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link or image: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors_of(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file; a repeated one gets -1, -2, ... as on GitHub."""
    seen: dict[str, int] = {}
    anchors = set()
    for match in HEADING.finditer(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(match.group(2))
        count = seen.get(base, 0)
        anchors.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return anchors


def broken_links(path: Path) -> list[str]:
    """The relative links and images of one Markdown file that resolve to nothing."""
    broken = []
    for target in links_of(path.read_text(encoding="utf-8")):
        if SCHEME.match(target) or target.startswith("//"):
            continue  # a web address: not checked here (no network)
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and unquote(anchor) not in anchors_of(resolved):
            broken.append(f"{target}: no such heading in {file_part or path.name}")
    return broken


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_image_resolves(path):
    assert broken_links(path) == []


def test_the_link_check_finds_a_broken_file_and_a_broken_anchor(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## The `attention` package: 3.5.1's mask\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## Two words\n\n[ok](other.md#the-attention-package-351s-mask) [self](#two-words)\n"
        "![gone](missing.png) [bad](other.md#nowhere) [web](https://example.org/x) `[code](nothing.md)`\n"
        "```\n[in a block](nothing.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == ["missing.png: no such file", "other.md#nowhere: no such heading in other.md"]


def test_slugs_follow_githubs_rules():
    assert slug("Presenting: the projection and the presenter console") == (
        "presenting-the-projection-and-the-presenter-console")
    assert slug("The lecture's states") == "the-lectures-states"
    assert slug("Multi-head attention (batch 8, 12 heads, causal)") == "multi-head-attention-batch-8-12-heads-causal"
    assert slug("**Bold** and `code`: 6×6") == "bold-and-code-66"
    assert slug("앱으로 강의하기") == "앱으로-강의하기"


# ----- the commands ---------------------------------------------------------------------------


def makefile_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([A-Za-z0-9_.-]+)[ \t]*:(?!=)", text, flags=re.M))
    for phony in re.findall(r"^\.PHONY:((?:.*\\\n)*.*)$", text, flags=re.M):
        targets |= set(phony.replace("\\\n", " ").split())
    return targets - {".PHONY"}


def make_commands(text: str) -> set[str]:
    """The targets of every ``make <target>`` shown as code."""
    found = set()
    for code in code_of(text):
        found |= set(re.findall(r"(?:^|[\s;&|(])make[ \t]+([A-Za-z0-9_.-]+)", code, flags=re.M))
    return found


def test_the_readme_shows_make_run_and_make_test():
    assert {"run", "test"} <= make_commands(README.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_make_command_shown_is_a_makefile_target(path):
    assert make_commands(path.read_text(encoding="utf-8")) - makefile_targets() == set()


def test_the_command_check_reads_code_only():
    text = "To make sense of it, run `make run`.\n\n```bash\nmake test   # all\nX=1 make bench-room\n```\n"
    assert make_commands(text) == {"run", "test", "bench-room"}
    assert {"run", "test", "bench", "soak-class", "clean"} <= makefile_targets()


# ----- the front door and the pages ------------------------------------------------------------


def test_the_readme_is_at_most_200_lines():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= MAX_README_LINES


def test_the_readme_links_to_every_docs_page():
    linked = {(ROOT / unquote(t.partition("#")[0])).resolve() for t in links_of(README.read_text(encoding="utf-8"))
              if not SCHEME.match(t)}
    assert [p.name for p in sorted(DOCS.glob("*.md")) if p.resolve() not in linked] == []


def opening(path: Path) -> tuple[str, str]:
    """A page's title line and the first paragraph under it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    title, rest = lines[0], "\n".join(lines[1:]).strip()
    return title, rest.split("\n\n", 1)[0]


@pytest.mark.parametrize("path", english_pages(), ids=lambda p: p.name)
def test_each_docs_page_opens_by_saying_who_it_is_for(path):
    title, first = opening(path)
    assert title.startswith("# ")
    assert re.match(r"This page is for \w", first), f"{path.name} opens with: {first[:80]!r}"


def test_the_translations_of_the_teaching_page_link_back_to_it():
    for translation in sorted(DOCS.glob("teaching.*.md")):
        assert "teaching.md" in links_of(translation.read_text(encoding="utf-8")), translation.name
        assert translation.name in links_of((DOCS / "teaching.md").read_text(encoding="utf-8"))


# ----- the numbers ---------------------------------------------------------------------------


def tables_with_intros(text: str) -> list[tuple[str, str]]:
    """Every table (outside code) and the paragraph right above it."""
    lines = FENCE.sub("", text).splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|\s*$", lines[i + 1]):
            end = i
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            above = i - 1
            while above >= 0 and not lines[above].strip():
                above -= 1
            top = above
            while top >= 0 and lines[top].strip() and not lines[top].startswith("#"):
                top -= 1
            found.append(("\n".join(lines[i:end]), "\n".join(lines[top + 1:above + 1])))
            i = end
        else:
            i += 1
    return found


def unsourced_numbers(table: str, intro: str, page: Path) -> list[str]:
    """The decimals of a table that neither its intro's date nor its intro's benchmark files account for."""
    body = "\n".join(table.splitlines()[2:])
    numbers = DECIMAL.findall(body)
    if not numbers or DATE.search(intro):
        return []
    sources = [(page.parent / t).resolve() for t in links_of(intro) if re.search(r"benchmarks/[^/]+\.md$", t)]
    if not sources:
        return ["(no source, no date)"]
    known = {n for source in sources if source.is_file() for n in DECIMAL.findall(source.read_text("utf-8"))}
    return [n for n in numbers if n not in known]


@pytest.mark.parametrize("name", MEASURED_PAGES)
def test_measured_tables_cite_their_benchmark_file_or_a_date(name):
    page = DOCS / name
    tables = tables_with_intros(page.read_text(encoding="utf-8"))
    assert tables, f"{name} has no tables"
    wrong = {table.splitlines()[0]: missing for table, intro in tables
             if (missing := unsourced_numbers(table, intro, page))}
    assert wrong == {}


def test_the_numbers_check_finds_a_number_its_source_lacks(tmp_path):
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "X.md").write_text("| a | 1.25 | 3.50 |\n", encoding="utf-8")
    page = tmp_path / "docs" / "p.md"
    page.parent.mkdir()
    table = "| a | b |\n|---|---|\n| 1.25 | 3.51 |"
    assert unsourced_numbers(table, "From [X](../benchmarks/X.md):", page) == ["3.51"]
    assert unsourced_numbers(table, "Measured on 2026-11-22:", page) == []
    assert unsourced_numbers(table, "Measured once:", page) == ["(no source, no date)"]
    assert unsourced_numbers("| a |\n|---|\n| 3 in 5 |", "Counted:", page) == []
