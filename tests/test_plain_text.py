"""Markdown read as plain text (ui/words/plain.py): what a select box shows of a question's Markdown."""

from __future__ import annotations

import pytest

from ui.chapter import PAGES
from ui.words.content import page_text
from ui.words.i18n import LANGUAGES
from ui.words.plain import plain_text


@pytest.mark.parametrize(("markdown", "plain"), [
    ("**Predict, then reveal.** The weights stay hidden", "Predict, then reveal. The weights stay hidden"),
    ("The shape of `inputs @ inputs.T` for your 6 tokens?", "The shape of inputs @ inputs.T for your 6 tokens?"),
    ("a `` code ` tick `` b", "a code ` tick b"),  # a code span's text is literal, backticks and all
    ("`a*b` and `**` stay", "a*b and ** stay"),
    ("2 * 3 = 6 and *x*", "2 * 3 = 6 and x"),  # a star between spaces is no emphasis
    ("snake_case_name and _it_", "snake_case_name and it"),  # nor an underscore inside a word
    ("***both*** and **unclosed", "both and **unclosed"),  # an unmatched mark stays text
    ("*foo**bar**baz*", "foobarbaz"),
    ("**foo*", "*foo"),
    (r"\*not\* emphasis", "*not* emphasis"),  # escapes
    ('[a link](https://example.org "title") here', "a link here"),
    ("[not a link] (x)", "[not a link] (x)"),
    (":blue[blue words] and :green-badge[a badge]", "blue words and a badge"),  # Streamlit's directives
    (":material/group: 12 following", "12 following"),
    ("one\nparagraph", "one paragraph"),
])
def test_markdown_reads_as_its_plain_text(markdown, plain):
    assert plain_text(markdown) == plain


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_question_prompt_keeps_a_mark_in_any_language(lang):
    """Every Check yourself prompt, as the console's list of questions shows it: no **, no backticks."""
    for info in PAGES:
        for question_id, words in page_text(info.page_id, lang).questions.items():
            shown = plain_text(words.strings["prompt"])
            assert "**" not in shown and "`" not in shown, (lang, info.page_id, question_id, shown)
