"""The package's own words that a page shows: a compared method's label, an efficient variant's name.

The app translates them through its catalog, and ``python -m ui.catalog extract`` finds them by this mark, whatever
they look like ("v1 with v2's weights (transposed)" has no two plain words in a row for a heuristic to see). A label
that is Python code (``X @ X.T``, ``SelfAttention_v2``) reads the same in every language and goes unmarked.
"""

from __future__ import annotations

__all__ = ["said"]


def said(words: str) -> str:
    """``words`` as they are: the mark says they are English for a reader, so the catalog collects them."""
    return words
