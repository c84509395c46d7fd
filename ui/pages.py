"""The page list, grouped by the chapter's headings (used by app.py and the tests)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PageInfo", "PAGES", "GROUPS"]


@dataclass(frozen=True)
class PageInfo:
    page_id: str  # also the URL path
    title: str
    file: str
    group: str


PAGES: tuple[PageInfo, ...] = (
    PageInfo("home", "Start here", "pages/p00_home.py", "Attention, live"),
    PageInfo("long-sequences", "3.1 The problem with modelling long sequences", "pages/p31_long_sequences.py",
             "3.1–3.2 Why attention"),
    PageInfo("dependencies", "3.2 Capturing dependencies with attention", "pages/p32_dependencies.py",
             "3.1–3.2 Why attention"),
    PageInfo("one-query", "3.3.1 Simple self-attention for one query", "pages/p331_one_query.py",
             "3.3 Self-attention without weights"),
    PageInfo("all-queries", "3.3.2 Attention weights for all tokens", "pages/p332_all_queries.py",
             "3.3 Self-attention without weights"),
    PageInfo("trainable-steps", "3.4.1 Trainable weights, step by step", "pages/p341_trainable_steps.py",
             "3.4 Trainable weights"),
    PageInfo("self-attention-classes", "3.4.2 Compact self-attention classes",
             "pages/p342_self_attention_classes.py", "3.4 Trainable weights"),
    PageInfo("causal-mask", "3.5.1 The causal mask", "pages/p351_causal_mask.py", "3.5 Causal attention"),
    PageInfo("dropout", "3.5.2 Dropout", "pages/p352_dropout.py", "3.5 Causal attention"),
    PageInfo("causal-class", "3.5.3 A compact causal attention class", "pages/p353_causal_class.py",
             "3.5 Causal attention"),
    PageInfo("stacking-heads", "3.6.1 Stacking heads", "pages/p361_stacking_heads.py",
             "3.6 Multi-head attention"),
    PageInfo("weight-splits", "3.6.2 Weight splits", "pages/p362_weight_splits.py",
             "3.6 Multi-head attention"),
    PageInfo("text-to-attention", "From text to attention", "pages/p_text_to_attention.py",
             "Beyond the chapter"),
    PageInfo("efficient", "Efficient multi-head attention", "pages/p_efficient.py", "Beyond the chapter"),
)

# File names deliberately differ from the URL paths: Streamlit 1.67 still scans pages/ the
# legacy way until st.navigation has run once in the process, and a legacy page whose name
# matched a URL path would run without app.py's frame (see ui/serve.py; tested in test_app.py).

GROUPS: tuple[str, ...] = tuple(dict.fromkeys(p.group for p in PAGES))
