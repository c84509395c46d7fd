"""The page list, grouped by the chapter's headings (used by app.py and the tests).

Titles and group names are words, so they live in the content files
(pages/content/en/<page_id>.toml and _app.toml, translated by locales/); this list holds only ids and files.
"""

from __future__ import annotations

from dataclasses import dataclass

from .content import app_text, page_text

__all__ = ["PageInfo", "PAGES", "GROUPS", "group_title", "page_title"]


@dataclass(frozen=True)
class PageInfo:
    page_id: str  # also the URL path
    file: str
    group: str  # a group id; its name is group_title(group)

    @property
    def title(self) -> str:
        return page_title(self.page_id)


def page_title(page_id: str, lang: str | None = None) -> str:
    return page_text(page_id, lang).title


def group_title(group: str, lang: str | None = None) -> str:
    return app_text(f"group_{group}", lang)


PAGES: tuple[PageInfo, ...] = (
    PageInfo("home", "pages/p00_home.py", "start"),
    PageInfo("walkthrough", "pages/p01_walkthrough.py", "start"),
    PageInfo("long-sequences", "pages/p31_long_sequences.py", "why"),
    PageInfo("dependencies", "pages/p32_dependencies.py", "why"),
    PageInfo("one-query", "pages/p331_one_query.py", "no_weights"),
    PageInfo("all-queries", "pages/p332_all_queries.py", "no_weights"),
    PageInfo("trainable-steps", "pages/p341_trainable_steps.py", "trainable"),
    PageInfo("self-attention-classes", "pages/p342_self_attention_classes.py", "trainable"),
    PageInfo("causal-mask", "pages/p351_causal_mask.py", "causal"),
    PageInfo("dropout", "pages/p352_dropout.py", "causal"),
    PageInfo("causal-class", "pages/p353_causal_class.py", "causal"),
    PageInfo("stacking-heads", "pages/p361_stacking_heads.py", "multi_head"),
    PageInfo("weight-splits", "pages/p362_weight_splits.py", "multi_head"),
    PageInfo("text-to-attention", "pages/p_text_to_attention.py", "beyond"),
    PageInfo("efficient", "pages/p_efficient.py", "beyond"),
)

# File names deliberately differ from the URL paths: Streamlit 1.67 still scans pages/ the
# legacy way until st.navigation has run once in the process. The files named like the URL
# paths are one-line entry files that run app.py (ui/entry.py), so a deep link on a fresh
# server gets the frame; a page script named in a URL runs app.py instead (ui/frame.py).

GROUPS: tuple[str, ...] = tuple(dict.fromkeys(p.group for p in PAGES))
