"""The stylesheets and the theme agree on fonts a budget phone need not download."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHEETS = sorted((ROOT / "ui" / "shell").glob("*.css"))


def _theme() -> dict:
    return tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))["theme"]


def test_code_is_drawn_in_the_devices_monospace_font_the_same_list_in_theme_and_css():
    code_font = _theme()["codeFont"]
    declared = re.search(r"--mono-font:\s*([^;]+);", (ROOT / "ui/shell/style.css").read_text(encoding="utf-8"))
    assert declared and declared.group(1).strip() == code_font
    families = [f.strip().strip("'\"") for f in code_font.split(",")]
    assert families[-1] == "monospace" and "Source Code Pro" not in families


def test_no_stylesheet_asks_for_streamlits_downloaded_monospace_font():
    for sheet in SHEETS:
        text = sheet.read_text(encoding="utf-8")
        assert "Source Code Pro" not in text, sheet.name
        for rule in re.findall(r"font-family:\s*([^;]+);", text):
            assert "monospace" not in rule or "var(--mono-font)" in rule, (sheet.name, rule)
