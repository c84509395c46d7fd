"""Streamlit glue between the pages and the ``attention`` package: every part of the app but the math.

Pages call ``ui``; ``ui`` calls ``attention``; never the other way. Inside ``ui`` imports go one
way too, from the shell at the top down to drawing, words and state (tests/test_layout.py):

    shell/      the app around every page: frame, style, process set-up, server start, reconnects
    lecture/    the walkthrough (/walkthrough): its projection, presenter console, and their rooms
    page/       the page controller every page script starts with (start_page)
    check/      Check yourself: questions, answer parsing, the panel and the ✓ in the navigation
    sharing/    what leaves the app: the ?s= link, its codec, CSV downloads
    steps/      step-through: a page's computation one named step at a time, clicker keys
    inputs/     the shared input matrix: its type, the sidebar that edits it, its session state
    draw/       charts, printed tensors and code excerpts (data in, elements out)
    chapter.py  the table of contents: page ids (= URL paths), files, groups
    state.py    what every page shares in the session, and the registry of its keys (from keys.py)
    words/      the content files and the four languages' catalogs
    script.py   running app.py or a page script (and the legacy first run of a server)
    settings.py hosted-mode caps and environment settings
    keys.py     the registry of every session key: names only
    catalog.py  python -m ui.catalog: the translation catalogs kept in step with the English

Each package's own ``__init__`` says what it owns.
"""
