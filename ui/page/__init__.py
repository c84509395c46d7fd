"""The page controller: a page's header, its controls, and its guarded computation.

A page script calls :func:`start_page`, draws its controls through the returned
:class:`Page`, asks it to ``compute`` with the ``attention`` package, and draws
the result with :mod:`ui.draw`. It does no tensor math and holds no words: the
words come from the page's content file (:mod:`ui.words.content`).

Its parts: ``controller`` (the :class:`Page` a script is handed, its step-through, its guarded computation and its
download, and :func:`start_page`), ``controls`` (the controls every page shares, and the settings they make),
``driver`` (a walkthrough step driving a page), ``state`` (the controls' values in the session, each drawn as a
widget that survives page switches) and ``header`` (the page's title, explanation and queued message).
"""

from .controller import Page, start_page
from .controls import LaterSettings, ModuleSettings, normalisation_name
from .driver import Driver, Fixed, driven_by
from .header import draw_explanation, draw_flash, draw_header

__all__ = ["Driver", "LaterSettings", "ModuleSettings", "Page", "draw_explanation", "draw_flash", "draw_header",
           "driven_by", "normalisation_name", "start_page", "Fixed"]
