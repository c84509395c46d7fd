"""A formula's equations (ui/draw/formula.py): parted where the chapter's formulas put a space between them, and on
a phone drawn on the server, one picture per equation, with MathML a screen reader reads."""

from __future__ import annotations

import base64
import re
from html import unescape

import pytest

from ui.chapter import PAGES
from ui.draw.formula import breakable, drawn, equations
from ui.words.content import page_text

FORMULAS = [page_text(p.page_id).formula for p in PAGES if page_text(p.page_id).formula]


def test_equations_part_a_formula_at_its_top_level_spaces_only():
    assert equations(r"a = b \qquad c = \left( d \quad e \right)") == ["a = b", r"c = \left( d \quad e \right)"]
    assert equations(r"\begin{cases} x & y \quad z \end{cases}") == [r"\begin{cases} x & y \quad z \end{cases}"]
    assert equations(r"{a \qquad b}") == [r"{a \qquad b}"]  # inside a group: one equation


def test_breakable_keeps_katexs_form_of_the_same_equations():
    latex = r"a = b \qquad c = d"
    assert breakable(latex) == r"{a = b} \qquad\allowbreak {c = d}"
    assert breakable("a = b") == "a = b"


@pytest.mark.parametrize("latex", FORMULAS)
def test_every_pages_formula_is_drawn_one_picture_per_equation_with_its_mathml(latex):
    html = drawn(latex)
    assert html is not None, latex
    pictures = re.findall(r'<img class="formula-part" alt="" src="data:image/svg\+xml;base64,([^"]+)">', html)
    assert len(pictures) == len(equations(latex))
    for picture in pictures:
        svg = base64.b64decode(picture).decode()
        assert svg.startswith("<svg") and "<use" not in svg  # plain paths: an image refers to nothing outside it
        assert float(re.search(r'width="([\d.]+)"', svg).group(1)) > 0
    hidden, spoken = html.split('<div class="sr-only" data-mathml="')
    assert 'aria-hidden="true"' in hidden and unescape(spoken).startswith("<math")
    assert "<math" not in spoken  # escaped: the HTML element's sanitiser would drop it as markup


def test_a_formula_the_server_cannot_draw_falls_back_to_katex():
    assert drawn(r"\frac{") is None
