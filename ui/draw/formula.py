"""A page's or a step's formula: its equations allowed to wrap between them on a narrow screen, never inside one.

On a phone the formula is drawn on the server, as SVG (``ziamath``, its own math font: no TeX, no browser script),
with its MathML for a screen reader: Streamlit's formula element loads KaTeX (its script, stylesheet and fonts, about
130 kB sent) before the page's first formula shows, and on a deep link that formula sits above the first chart, on
a budget phone's 1.6 Mbit/s. A laptop keeps KaTeX, whose text can be selected.

The drawing is an HTML element, not Markdown's raw HTML: Markdown with HTML in it makes Streamlit fetch its HTML
parser for Markdown (rehype-raw, 59 kB sent) and run the whole text through it, base64 pictures and all (about half
a second of a budget phone's slowed CPU for 3.5.1's formula), while the first chart waits for the same link and the
same CPU. The HTML element's sanitiser keeps HTML only, so the MathML travels as an attribute and a line of script
puts it in place.
"""

from __future__ import annotations

import base64
import functools
import logging
import re
from collections.abc import Iterable
from html import escape

import streamlit as st
import ziafont
import ziamath
from latex2mathml.converter import convert as latex_to_mathml

from .layout import narrow_screen

__all__ = ["breakable", "drawn", "equations", "predraw", "show_formula"]

ziafont.config.svg2 = False  # glyphs as plain paths: an image's SVG has nothing outside itself to refer to
ziafont.config.precision = 2  # hundredths of a pixel: a third smaller, and no visible difference
FORMULA_PX = 19  # KaTeX's display size on a 16 px page (1.21em)
_log = logging.getLogger("attention_app")


_SPACE = re.compile(r"\\q?quad(?![A-Za-z])")
_OPEN = re.compile(r"\\(left|right|begin|end)(?![A-Za-z])")


def breakable(latex: str) -> str:
    """A formula of several equations (``a = b \\quad c = d``) whose lines may break between them, never inside one.

    Each equation becomes a group (KaTeX breaks a line only between top-level atoms, and a group is one), with a
    break allowed after the space that separates it from the next. On a phone (ui/shell/results.css) the display
    then wraps: 3.4.1's five equations are 648 px on one line, and a phone has 358."""
    parts, last = _split(latex)
    if not parts:
        return latex
    return "".join(f"{{{part.strip()}}} {space}\\allowbreak " for part, space in parts) + f"{{{last.strip()}}}"


def equations(latex: str) -> list[str]:
    """The formula's equations, as the spaces between them (``\\quad``, ``\\qquad``) at its top level part them."""
    parts, last = _split(latex)
    return [p.strip() for p, _ in parts] + [last.strip()]


def _split(latex: str) -> tuple[list[tuple[str, str]], str]:
    """(each equation but the last, with the space after it), and the last."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(latex):
        ch = latex[i]
        if ch == "\\" and i + 1 < len(latex) and latex[i + 1] in "{}":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        opened = _OPEN.match(latex, i)  # \left( ... \right) and \begin{..} ... \end{..} are one piece too
        if opened:
            depth += 1 if opened.group(1) in ("left", "begin") else -1
            i = opened.end()
            continue
        match = _SPACE.match(latex, i) if depth == 0 else None
        if match:
            parts.append((latex[start:i], match.group()))
            start = i = match.end()
            continue
        i += 1
    return parts, latex[start:]


def show_formula(latex: str) -> None:
    """A page's or a step's formula, its equations allowed to wrap on a narrow screen: drawn on the server on a phone
    (KaTeX where the server cannot draw it)."""
    svg = drawn(latex) if narrow_screen() else None
    if svg is not None:  # its script puts the MathML in place (the sanitiser would drop it as markup)
        st.html(svg, unsafe_allow_javascript=True)
    else:
        st.latex(breakable(latex))


# Run by Streamlit's HTML element once the element is in the page: the MathML, carried escaped in an attribute (the
# element's sanitiser keeps HTML only and would drop it as markup), becomes the hidden box's content.
_SPEAKABLE = ("(() => { const box = document.currentScript.previousElementSibling; "
              "box.innerHTML = box.dataset.mathml; box.removeAttribute('data-mathml'); })();")


@functools.lru_cache(maxsize=256)
def drawn(latex: str) -> str | None:
    """The formula as one SVG per equation, which wrap between them, and its MathML, which a screen reader reads (the
    pictures are hidden from it); None if either cannot be made."""
    try:
        pictures = "".join(f'<img class="formula-part" alt="" src="{_data_url(part)}">' for part in equations(latex))
        spoken = latex_to_mathml(latex, display="block")
    except Exception:  # noqa: BLE001  (either library raises its own many kinds for TeX it does not know)
        _log.warning("a formula could not be drawn on the server: %s", escape(latex[:80]))
        return None
    return (f'<div class="formula-drawn"><div class="formula-parts" aria-hidden="true">{pictures}</div>'
            f'<div class="sr-only" data-mathml="{escape(spoken)}"></div><script>{_SPEAKABLE}</script></div>')


def predraw(formulas: Iterable[str]) -> None:
    """Draw ``formulas`` into the cache a phone's pages read (ui/shell/serve.py, as the server boots): the first phone
    to open a page after a start would otherwise wait for its formula, up to half a second of the server's time
    (3.5.1's), before the rest of the page and its first chart are sent."""
    for latex in formulas:
        drawn(latex)


def _data_url(equation: str) -> str:
    """One equation's SVG as an image's address (an image is the one form every HTML path of Streamlit keeps)."""
    svg = ziamath.Latex(equation, size=FORMULA_PX).svg()
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
