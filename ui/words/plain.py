"""Markdown as plain text, for the places that show text as it is (a select box's options, a tooltip).

The app's sentences are Markdown as Streamlit renders it: CommonMark inlines (code spans, emphasis,
links, backslash escapes) and Streamlit's own directives (``:material/icon:``, ``:blue[text]``,
``:green-badge[text]``). :func:`plain_text` reads them the way a renderer does, left to right:
a code span's text is literal (``**`` inside backticks stays), an emphasis delimiter run counts only
where CommonMark lets it open or close (``2 * 3`` keeps its star), and an escaped character is itself.
Plain Python: no Streamlit.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["plain_text"]

_ESCAPABLE = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ICON = re.compile(r":material/[a-z0-9_]+:")
_DIRECTIVE = re.compile(r":(?:[a-z]+(?:-badge|-background)?)\[")  # :blue[, :green-badge[, :red-background[
_LINK_TARGET = re.compile(r"\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\)")


def plain_text(markdown: str) -> str:
    """The text a reader sees of one paragraph of inline Markdown, without its marks."""
    return re.sub(r"[ \t]*\n[ \t]*", " ", _inline(markdown.strip()))


@dataclass(eq=False)
class _Run:
    """A run of ``*`` or ``_``: emphasis marks where it opens or closes a match, else text."""

    mark: str
    count: int
    length: int  # as written
    opens: bool
    closes: bool


def _inline(text: str) -> str:
    """One scope (a paragraph, a link's text, a directive's text): its pieces, then emphasis matched."""
    pieces: list[str | _Run] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in _ESCAPABLE:
            pieces.append(text[i + 1])
            i += 2
        elif c == "`":
            i = _code_span(text, i, pieces)
        elif c in "*_":
            run = len(text[i:]) - len(text[i:].lstrip(c))
            opens, closes = _flanking(text, i, i + run, c)
            pieces.append(_Run(c, run, run, opens, closes) if opens or closes else text[i:i + run])
            i += run
        elif c == "[" and (end := _link(text, i, pieces)) is not None:
            i = end
        elif c == ":" and (icon := _ICON.match(text, i)):
            i = icon.end()
            if i < n and text[i] == " " and (not pieces or str(pieces[-1]).endswith(" ")):
                i += 1  # no double space (nor a leading one) where the icon stood
        elif c == ":" and (directive := _DIRECTIVE.match(text, i)) and (
                close := _closing(text, directive.end())) is not None:
            pieces.append(_inline(text[directive.end():close]))
            i = close + 1
        else:
            pieces.append(c)
            i += 1
    _match_emphasis(pieces)
    return "".join(p if isinstance(p, str) else p.mark * p.count for p in pieces)


def _match_emphasis(pieces: list[str | _Run]) -> None:
    """CommonMark's delimiter matching, in place: each closer takes the nearest opener of its mark (not across
    the rule of 3), two marks at a time where both have two; what matches is used up, the rest stays text."""
    for k, closer in enumerate(pieces):
        if not isinstance(closer, _Run) or not closer.closes:
            continue
        while closer.count:
            at = next((j for j in range(k - 1, -1, -1) if isinstance(p := pieces[j], _Run) and p.opens and p.count
                       and p.mark == closer.mark and not _rule_of_three(p, closer)), None)
            if at is None:
                break
            opener = pieces[at]
            used = 2 if opener.count >= 2 and closer.count >= 2 else 1
            opener.count -= used
            closer.count -= used
            for p in pieces[at + 1:k]:  # marks left open inside a match are text
                if isinstance(p, _Run):
                    p.opens = p.closes = False


def _rule_of_three(opener: _Run, closer: _Run) -> bool:
    both = opener.closes or closer.opens
    return both and (opener.length + closer.length) % 3 == 0 and not (
        opener.length % 3 == 0 and closer.length % 3 == 0)


def _code_span(text: str, start: int, out: list) -> int:
    """A code span: its text as written (one leading and trailing space dropped, as CommonMark does)."""
    ticks = len(text[start:]) - len(text[start:].lstrip("`"))
    opener = text[start:start + ticks]
    at = start + ticks
    while (end := text.find(opener, at)) != -1:
        if text[end + ticks:end + ticks + 1] != "`" and text[end - 1] != "`":
            body = text[start + ticks:end].replace("\n", " ")
            if len(body) > 2 and body[0] == " " and body[-1] == " " and body.strip():
                body = body[1:-1]
            out.append(body)
            return end + ticks
        at = end + ticks
    out.append(opener)  # no closing run: the backticks are text
    return start + ticks


def _link(text: str, start: int, out: list) -> int | None:
    """``[text](target)``: the text; None if this bracket opens no link."""
    close = _closing(text, start + 1)
    if close is None:
        return None
    target = _LINK_TARGET.match(text, close + 1)
    if target is None:
        return None
    out.append(_inline(text[start + 1:close]))
    return target.end()


def _closing(text: str, start: int) -> int | None:
    """The ``]`` that closes the bracket opened just before ``start`` (nested brackets and escapes skipped)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return None


def _flanking(text: str, start: int, end: int, mark: str) -> tuple[bool, bool]:
    """CommonMark's rule: a run of ``*`` (or ``_``) is left-flanking if not followed by white space, and not
    followed by punctuation unless preceded by white space or punctuation; right-flanking the other way round.
    ``_`` inside a word (snake_case) is neither opener nor closer."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    left = not after.isspace() and (not _punct(after) or before.isspace() or _punct(before))
    right = not before.isspace() and (not _punct(before) or after.isspace() or _punct(after))
    if mark == "_":
        return left and (not right or _punct(before)), right and (not left or _punct(after))
    return left, right


def _punct(c: str) -> bool:
    return unicodedata.category(c).startswith(("P", "S"))
