"""Entry files for Streamlit's legacy pages/ scan (ui/entry.py): one per URL path, each running app.py."""

from __future__ import annotations

from pathlib import Path

from streamlit.source_util import page_icon_and_name

from ui.entry import APP, ENTRY_SOURCE, entry_files
from ui.pages import PAGES


def test_every_page_but_the_default_has_an_entry_file_that_runs_app_py():
    files = entry_files()
    assert set(files) == {p.page_id for p in PAGES[1:]}
    for path in files.values():
        assert path.is_file(), f"{path} is missing: run `python -m ui.entry`"
        assert path.read_text() == ENTRY_SOURCE, f"{path} is not the entry source: run `python -m ui.entry`"


def test_the_legacy_scan_names_each_entry_file_after_its_url_path():
    """What Streamlit's pages/ scan calls a file is what the browser asks for on a first visit."""
    for page_id, path in entry_files().items():
        assert page_icon_and_name(path)[1] == page_id
    for p in PAGES:  # and no page script answers a URL path itself (it would run outside app.py)
        assert page_icon_and_name(APP.parent / p.file)[1] not in {q.page_id for q in PAGES}


def test_entry_files_are_the_only_other_scripts_in_pages():
    scripts = {path.name for path in (APP.parent / "pages").glob("*.py")}
    expected = {Path(p.file).name for p in PAGES} | {path.name for path in entry_files().values()}
    assert scripts == expected
