"""Python source as HTML, its tokens coloured on the server (plain: no Streamlit).

A phone draws the code that ran with this instead of ``st.code``: Streamlit's code element loads its syntax
highlighter, 1.56 MB of JavaScript, the first time one is shown, and on a budget phone that was most of the 6-11 s a
first step-through took (its step shows the lines that ran). The classes are the highlighter's own (``token
keyword``...), so one set of colours serves both (ui/shell/access.css).
"""

from __future__ import annotations

import functools
import io
import keyword
import tokenize
from html import escape

__all__ = ["highlighted"]

_KIND = {tokenize.COMMENT: "comment", tokenize.STRING: "string", tokenize.NUMBER: "number"}
_PUNCTUATION = frozenset("()[]{},:;.")
_BOOLEANS = frozenset({"True", "False", "None"})


@functools.lru_cache(maxsize=512)
def highlighted(source: str, *, numbered: bool = False) -> str:
    """``source`` as a ``pre.listing``, one ``span.line`` per line (numbered by CSS with ``numbered``). Source that
    does not tokenize to its end (an excerpt cut inside brackets) keeps its colours up to there."""
    segments = _segments(source)
    lines: list[list[str]] = [[]]
    for text, kind in segments:
        for n, part in enumerate(text.split("\n")):
            if n:
                lines.append([])
            if part:
                lines[-1].append(f'<span class="token {kind}">{escape(part)}</span>' if kind else escape(part))
    if lines and not lines[-1]:
        lines.pop()
    body = "\n".join(f'<span class="line">{"".join(parts)}</span>' for parts in lines)
    return f'<pre class="listing{" numbered" if numbered else ""}"><code>{body}</code></pre>'


def _segments(source: str) -> list[tuple[str, str | None]]:
    """The source cut into (text, kind) pieces that join back into it exactly."""
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out: list[tuple[str, str | None]] = []
    done = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            kind = _kind(tok)
            if kind is None or tok.start[0] > len(starts) - 1:
                continue
            begin = starts[tok.start[0] - 1] + tok.start[1]
            end = starts[tok.end[0] - 1] + tok.end[1] if tok.end[0] <= len(starts) - 1 else len(source)
            if begin < done:
                continue
            out += [(source[done:begin], None), (source[begin:end], kind)]
            done = end
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # the rest as plain text
    out.append((source[done:], None))
    return [(text, kind) for text, kind in out if text]


def _kind(tok: tokenize.TokenInfo) -> str | None:
    if tok.type == tokenize.NAME:
        if tok.string in _BOOLEANS:
            return "boolean"
        return "keyword" if keyword.iskeyword(tok.string) else None
    if tok.type == tokenize.OP:
        return "punctuation" if tok.string in _PUNCTUATION else "operator"
    return _KIND.get(tok.type)
