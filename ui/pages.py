"""The page list, grouped by the chapter's headings (used by app.py and the tests)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PageInfo", "PAGES", "GROUPS"]


@dataclass(frozen=True)
class PageInfo:
    page_id: str  # also the URL path; the file is pages/<page_id>.py (see below)
    title: str
    file: str
    group: str


PAGES: tuple[PageInfo, ...] = (
    PageInfo("home", "Start here", "pages/home.py", "Attention, live"),
    PageInfo("long-sequences", "3.1 The problem with modelling long sequences", "pages/long-sequences.py",
             "3.1–3.2 Why attention"),
    PageInfo("dependencies", "3.2 Capturing dependencies with attention", "pages/dependencies.py",
             "3.1–3.2 Why attention"),
    PageInfo("one-query", "3.3.1 Simple self-attention for one query", "pages/one-query.py",
             "3.3 Self-attention without weights"),
    PageInfo("all-queries", "3.3.2 Attention weights for all tokens", "pages/all-queries.py",
             "3.3 Self-attention without weights"),
    PageInfo("trainable-steps", "3.4.1 Trainable weights, step by step", "pages/trainable-steps.py",
             "3.4 Trainable weights"),
    PageInfo("self-attention-classes", "3.4.2 Compact self-attention classes",
             "pages/self-attention-classes.py", "3.4 Trainable weights"),
    PageInfo("causal-mask", "3.5.1 The causal mask", "pages/causal-mask.py", "3.5 Causal attention"),
    PageInfo("dropout", "3.5.2 Dropout", "pages/dropout.py", "3.5 Causal attention"),
    PageInfo("causal-class", "3.5.3 A compact causal attention class", "pages/causal-class.py",
             "3.5 Causal attention"),
    PageInfo("stacking-heads", "3.6.1 Stacking heads", "pages/stacking-heads.py",
             "3.6 Multi-head attention"),
    PageInfo("weight-splits", "3.6.2 Weight splits", "pages/weight-splits.py",
             "3.6 Multi-head attention"),
    PageInfo("text-to-attention", "From text to attention", "pages/text-to-attention.py",
             "Beyond the chapter"),
    PageInfo("efficient", "Efficient multi-head attention", "pages/efficient.py", "Beyond the chapter"),
)

# Each file is named after its URL path: Streamlit still scans a pages/ folder the legacy way
# before st.navigation runs, and a deep link whose name matches no file there pops up a
# "Page not found" dialog over the page.
assert all(p.file == f"pages/{p.page_id}.py" for p in PAGES)

GROUPS: tuple[str, ...] = tuple(dict.fromkeys(p.group for p in PAGES))
