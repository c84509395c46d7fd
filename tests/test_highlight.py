"""A phone's code listing, coloured on the server (ui/draw/highlight.py): the text is the source, exactly, and its
tokens carry the classes the app's colours are written for."""

from __future__ import annotations

import inspect
import re
from html import unescape

from attention import CausalAttention, MultiHeadAttention
from ui.draw.highlight import highlighted


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html.removeprefix('<pre class="listing"><code>')))


def test_the_listing_reads_back_as_the_source_itself():
    for obj in (CausalAttention, MultiHeadAttention, CausalAttention.forward):
        source = inspect.getsource(obj)
        html = highlighted(source)
        assert text_of(html) == source.rstrip("\n")
        assert html.count('<span class="line">') == len(source.rstrip("\n").split("\n"))


def test_tokens_are_classed_as_the_highlighter_classes_them():
    html = highlighted('def f(x, p=0.5):  # why\n    return None if x is True else "s" @ x\n')
    found = {text: kind for kind, text in re.findall(r'<span class="token (\w+)">([^<]+)</span>', html)}
    assert found["def"] == found["return"] == found["if"] == found["is"] == "keyword"
    assert found["None"] == found["True"] == "boolean"
    assert found["0.5"] == "number" and found["&quot;s&quot;"] == "string" and found["# why"] == "comment"
    assert found["@"] == found["="] == "operator" and found["("] == found[":"] == "punctuation"


def test_an_excerpt_cut_inside_brackets_or_indented_keeps_all_its_text():
    for cut in ("    scores = torch.softmax(queries @ keys.T,\n", "        x = (1,\n    2", "'''open string\n"):
        assert text_of(highlighted(cut)) == cut.rstrip("\n")


def test_numbered_listings_say_so_for_the_stylesheet_to_count_lines():
    assert highlighted("a = 1\nb = 2", numbered=True).startswith('<pre class="listing numbered">')
