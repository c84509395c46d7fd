"""The chapter's table of contents: every page, its file, and its group (the chapter's headings).

Titles and group names are words, so they live in the content files
(pages/content/en/<page_id>.toml and _app.toml, translated by locales/); this list holds only ids and files.
A page's file is ``pages/<section>_<page_id>.py``: the section number first, so the folder lists the
pages in the chapter's order, and the page id, which is also the URL path, after it (see ui/script.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from .words.content import app_text, page_text

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
    PageInfo("home", "pages/00_home.py", "start"),
    PageInfo("walkthrough", "pages/01_walkthrough.py", "start"),
    PageInfo("long-sequences", "pages/31_long-sequences.py", "why"),
    PageInfo("dependencies", "pages/32_dependencies.py", "why"),
    PageInfo("one-query", "pages/331_one-query.py", "no_weights"),
    PageInfo("all-queries", "pages/332_all-queries.py", "no_weights"),
    PageInfo("trainable-steps", "pages/341_trainable-steps.py", "trainable"),
    PageInfo("self-attention-classes", "pages/342_self-attention-classes.py", "trainable"),
    PageInfo("causal-mask", "pages/351_causal-mask.py", "causal"),
    PageInfo("dropout", "pages/352_dropout.py", "causal"),
    PageInfo("causal-class", "pages/353_causal-class.py", "causal"),
    PageInfo("stacking-heads", "pages/361_stacking-heads.py", "multi_head"),
    PageInfo("weight-splits", "pages/362_weight-splits.py", "multi_head"),
    PageInfo("text-to-attention", "pages/91_text-to-attention.py", "beyond"),
    PageInfo("efficient", "pages/92_efficient.py", "beyond"),
)


GROUPS: tuple[str, ...] = tuple(dict.fromkeys(p.group for p in PAGES))
