"""English prose on a translated page: runs of English words outside code, printed tensors and formulas; and
English labels (a table's cell, a chart's legend or axis, a compared method's name) and words in a formula.

A helper for tests (tests/test_english_prose.py, tests/browser/test_english_prose.py). A run is three or more
words in a row, each a word of the app's own English (its catalog's source strings), with a function word ("the",
"of", "is"...) among them or four words or more, and three or more of them not among the words the language's
glossary keeps in English on purpose (its ``use`` and ``keep`` forms: attention, head, dropout, query...).
"The causal mask hides each later key" is such a run; "causal mask" beside Korean or Vietnamese words is not.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache

from attention import ATTENTION_BACKENDS, BOOK_TOKENS
from attention.trace import STEP_MEANINGS
from ui import catalog as catalogs
from ui.words import glossary
from ui.words.i18n import LOCALES

FUNCTION_WORDS = frozenset(
    "the a an and or of to is are be was were with for from each every this that these those into on in by its it "
    "than which when where your you what how not no only also then as at can will has have their there here one "
    "all more most same other after before between up out off so if but because do does about over".split())
# English a translated page shows on purpose: the book's input sentence and its tokens, the book's title and
# author, and the names of code (a variant's name is its module's).
ALLOWED_PHRASES = (
    "Your journey starts with one step", "Build a Large Language Model From Scratch", "LLMs from scratch",
    "Sebastian Raschka", "torch.nn.MultiheadAttention",
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_CODE_LIKE = re.compile(r"\S*[_./()=\[\]]\S*")  # masked_scores, nn.Linear, W_query, x(2): code, not prose


@cache
def english_words() -> frozenset[str]:
    """Every word of the app's English: the source strings of its catalog."""
    words = set()
    for message in catalogs.source_catalog():
        if message.id:
            words.update(w.lower() for w in _WORD.findall(glossary.prose(str(message.id))))
    return frozenset(words) | FUNCTION_WORDS


@cache
def kept_words(lang: str) -> frozenset[str]:
    """The words ``lang``'s glossary uses or keeps as they are in English (a term it does not translate)."""
    kept = set()
    for term in glossary.load(glossary.glossary_path(LOCALES, lang)):
        for form in (*term.use, *term.keep):
            if form.isascii():
                kept.update(w.lower() for w in _WORD.findall(form))
    return frozenset(kept)


def english_runs(text: str, lang: str, least: int = 3) -> list[str]:
    """The runs of English prose in ``text``, a translated page's visible words."""
    text = re.sub(r"\s+", " ", text)
    for phrase in ALLOWED_PHRASES:
        text = text.replace(phrase, " · ")
    text = _CODE_LIKE.sub(" · ", text)
    vocabulary, kept = english_words(), kept_words(lang)
    runs, run = [], []

    def close() -> None:
        words = [w.lower() for w in run]
        if (len(run) >= least and (len(run) > least or any(w in FUNCTION_WORDS for w in words))
                and sum(w not in kept for w in words) >= least):
            runs.append(" ".join(run))
        run.clear()

    position = 0
    for match in _WORD.finditer(text):
        between = text[position:match.start()]
        word = match.group()
        position = match.end()
        if run and not re.fullmatch(r"[\s,;:\-–—'\"“”‘’]*", between):  # a sentence's end or a symbol breaks a run
            close()
        if word.isascii() and word.lower() in vocabulary:
            run.append(word)
        else:
            close()
    close()
    return runs


# A label is too short for a run of three: one English word in it ("book MultiHeadAttention") is a leak. Its words
# may hold digits ("v1 with v2's weights"); CamelCase and capitals are names of code (MultiHeadAttention, QKV, SDPA).
_LABEL_WORD = re.compile(r"[^\W_]+(?:['’][^\W\d_]+)?")
_NAME_OF_CODE = re.compile(r"[A-Z0-9]{2,}|[A-Za-z]*[a-z][A-Z]\w*|\w*\d\w*")
_NOT_WORDS = {*(t.lower() for t in BOOK_TOKENS), *ATTENTION_BACKENDS}  # the book's tokens (data); backends (code)


_AXES = re.compile(r"\((?:\w+: \d+(?:, )?)+\)")  # a step's shape with its axes' names: (batch: 2, token: 6)


def is_code(text: str) -> bool:
    """Python reads it as an expression (``X @ X.T``, ``SelfAttention_v2``, a step's name ``weights``), or it is a
    step's shape with the names of its axes, as the trace records them."""
    if _AXES.fullmatch(text):
        return True
    try:
        compile(text, "<label>", "eval")
    except (SyntaxError, ValueError):
        return False
    return True


def _english_words(words: list[str], lang: str) -> list[str]:
    vocabulary, kept = english_words(), kept_words(lang)
    return [w for w in words if len(w) > 1 and w.isascii() and w.lower() in vocabulary and w.lower() not in kept
            and w.lower() not in _NOT_WORDS and not _NAME_OF_CODE.fullmatch(w)]


@cache
def step_names() -> frozenset[str]:
    """The names of the computations' steps (``scores``, ``hidden_states``): code, which a lecture's chart carries as
    its title, as the trace records it."""
    names = set(STEP_MEANINGS)
    for path in (catalogs.CONTENT).glob("*.toml"):
        names.update(tomllib.loads(path.read_text(encoding="utf-8")).get("steps", {}))
    return frozenset(names | {name.rpartition(".")[2] for name in names})  # batched_product.product: "product"


def english_label(text: str, lang: str, code: bool = True) -> list[str]:
    """The English words of a short label, when the label is English: every word of it in Latin letters without
    the language's own (a Vietnamese, Korean or Indonesian word makes it the language's), and it is not code.
    ``code``: a label Python reads (a step's name ``weights``) may be code; a chart's legend or axis is never, and
    only a title that is a step's name is."""
    if text.strip() in step_names():
        return []
    for phrase in ALLOWED_PHRASES:
        text = text.replace(phrase, " ")
    if code and is_code(text.strip()):
        return []
    if any(not w.isascii() or (w.isalpha() and len(w) > 1 and w.lower() not in english_words())
           for w in _LABEL_WORD.findall(text) if not _NAME_OF_CODE.fullmatch(w)):
        return []  # a word of the page's language, inside code's brackets too ("(1 = token asli)")
    return _english_words(_LABEL_WORD.findall(_CODE_LIKE.sub(" ", text)), lang)


_TEXT_IN_FORMULA = re.compile(r"\\(?:text|textrm|textit|textbf|textsf|mbox)\s*\{([^{}]*)\}")


def formula_words(latex: str, lang: str) -> list[str]:
    """English words written as text inside a formula (``\\text{decoder sees only}``): the same in every
    language, so a formula holds symbols and code (``\\texttt{view}``), and its prose goes in the page's words."""
    return _english_words([w for part in _TEXT_IN_FORMULA.findall(latex) for w in _LABEL_WORD.findall(part)], lang)
