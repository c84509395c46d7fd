"""Content files: every page's words live in pages/content/en/, are complete, are all
used, fill in cleanly, translate one string at a time, and the page scripts carry no prose."""

from __future__ import annotations

import ast
import re
import string
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from ui.chapter import GROUPS, PAGES, group_title
from ui.check.answers import REASONS
from ui.check.questions import GENERIC, NUMBER, PREDICT, QUESTIONS, SHAPE
from ui.draw.charts import KINDS
from ui.inputs.matrix import PRESETS
from ui.words import content
from ui.words.content import APP_FILE, CONTENT_ROOT, DEFAULT_LANG, app_text, load_page_text, page_text

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "pages").glob("*.py"))
PAGE_OF_SCRIPT = {ROOT / p.file: p.page_id for p in PAGES}
APP_SOURCES = [ROOT / "app.py", *sorted((ROOT / "ui").rglob("*.py")), *SCRIPTS]


# ----- finding the keys the code uses ---------------------------------------------------


@dataclass(frozen=True)
class Use:
    """One lookup in the code: its key (None if not a string literal) and keyword names."""

    where: str
    key: str | None
    values: frozenset[str] | None  # None when the call passes **mapping (not checkable)


def _lookups(path: Path, is_lookup) -> list[Use]:
    uses = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and is_lookup(node.func):
            first = node.args[0] if node.args else None
            key = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
            names = [k.arg for k in node.keywords if k.arg != "lang"]
            values = None if None in names else frozenset(names)
            uses.append(Use(f"{path.relative_to(ROOT)}:{node.lineno}", key, values))
    return uses


def _is_page_text(func: ast.expr) -> bool:
    """page.text(...) (any object but st: st.text is Streamlit's) or a bare text(...)."""
    if isinstance(func, ast.Attribute):
        return func.attr == "text" and not (isinstance(func.value, ast.Name) and func.value.id == "st")
    return isinstance(func, ast.Name) and func.id == "text"


def _is_app_text(func: ast.expr) -> bool:
    return (isinstance(func, ast.Name) and func.id == "app_text") or (
        isinstance(func, ast.Attribute) and func.attr == "app_text")


def page_uses(page_id: str) -> list[Use]:
    script = next(s for s, pid in PAGE_OF_SCRIPT.items() if pid == page_id)
    return _lookups(script, _is_page_text)


def app_uses() -> list[Use]:
    """app_text lookups with a literal key, plus the keys ui/ builds from a name: the navigation groups
    (ui.chapter.group_title), and Check yourself's messages (ui/check/panel.py: why an answer could not be read,
    the feedback any question may give, the placeholder of a typed answer)."""
    uses = [u for path in APP_SOURCES for u in _lookups(path, _is_app_text) if u.key is not None]
    uses += [Use("ui/chapter.py:group_title", f"group_{g}", frozenset()) for g in GROUPS]
    uses += [Use("ui/check/panel.py:answer_<reason>", f"answer_{r}", None) for r in REASONS]
    uses += [Use("ui/check/panel.py:check_<feedback>", f"check_{g}", None) for g in GENERIC]
    uses += [Use("ui/check/panel.py:placeholder_<kind>", f"placeholder_{k}", None) for k in (NUMBER, SHAPE)]
    uses += [Use("ui/draw/chart_heatmap.py:legend_<kind>", f"legend_{k}", frozenset()) for k in KINDS]
    uses += [Use("ui/inputs/sidebar.py:preset_<preset>", f"preset_{p}", frozenset()) for p in PRESETS]
    return uses


def _fields(template: str) -> set[str]:
    """The named fields of a str.format template (raises ValueError on a stray brace)."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(template):
        if name is not None:
            if not name or name.isdigit():
                raise ValueError(f"positional field in {template!r}: use named fields")
            names.add(re.split(r"[.\[]", name, maxsplit=1)[0])
    return names


class _Any:
    """A stand-in value that accepts any format spec a number or a string would."""

    def __format__(self, spec: str) -> str:
        for sample in (1234, 1234.5, "x"):
            try:
                return format(sample, spec)
            except (ValueError, TypeError):
                continue
        raise ValueError(f"no value can be formatted with {spec!r}")


def _raw(page_id: str) -> dict:
    with (CONTENT_ROOT / DEFAULT_LANG / f"{page_id}.toml").open("rb") as f:
        return tomllib.load(f)


PAGE_IDS = [p.page_id for p in PAGES]


# ----- the English files: present, parsed, complete, all used ------------------------------


def test_every_content_file_parses_and_belongs_to_a_page():
    """Words per page and language; walkthroughs (data, not a page's words) live in walkthroughs/."""
    files = sorted(p for p in CONTENT_ROOT.rglob("*.toml") if p.parent.name != "walkthroughs")
    assert files, CONTENT_ROOT
    for path in files:
        with path.open("rb") as f:
            tomllib.load(f)  # raises on a syntax error
        assert path.stem in {*PAGE_IDS, APP_FILE}, f"{path} is not a page id (ui/chapter.py) nor {APP_FILE}"


def test_every_page_script_is_a_listed_page_and_starts_with_its_own_id():
    assert set(SCRIPTS) == set(PAGE_OF_SCRIPT), "pages/*.py and ui.chapter.PAGES disagree"
    for script, page_id in PAGE_OF_SCRIPT.items():
        calls = [n for n in ast.walk(ast.parse(script.read_text()))
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "start_page"]
        assert len(calls) == 1, f"{script.name} must call start_page once"
        assert [ast.literal_eval(a) for a in calls[0].args] == [page_id], f"{script.name} reads another page's words"


@pytest.mark.parametrize("page_id", PAGE_IDS)
def test_every_page_has_an_english_title_and_intro(page_id):
    raw = _raw(page_id)
    assert set(raw) <= {"title", "intro", "idea", "formula", "text", "steps", "questions", "notebook"}, set(raw)
    words = page_text(page_id)
    assert words.title.strip() and words.intro.strip()
    assert words.formula is None or words.formula.strip()
    assert words.title == next(p.title for p in PAGES if p.page_id == page_id)


@pytest.mark.parametrize("page_id", PAGE_IDS)
def test_page_keys_are_all_defined_and_all_used(page_id):
    uses = page_uses(page_id)
    dynamic = [u.where for u in uses if u.key is None]
    assert not dynamic, f"page.text keys must be string literals (checkable): {dynamic}"
    defined = set(_raw(page_id).get("text", {}))
    used = {u.key for u in uses}
    assert not used - defined, f"{page_id}.toml lacks {sorted(used - defined)}"
    assert not defined - used, f"{page_id}.toml has unused (stale) strings {sorted(defined - used)}"


def test_app_keys_are_all_defined_and_all_used():
    defined = set(_raw(APP_FILE).get("text", {}))
    used = {u.key for u in app_uses()}
    assert not used - defined, f"{APP_FILE}.toml lacks {sorted(used - defined)}"
    assert not defined - used, f"{APP_FILE}.toml has unused (stale) strings {sorted(defined - used)}"
    assert all(group_title(g) for g in GROUPS)


@pytest.mark.parametrize("page_id", [*PAGE_IDS, APP_FILE])
def test_call_sites_supply_exactly_the_fields_each_string_uses(page_id):
    words = page_text(page_id)
    uses = app_uses() if page_id == APP_FILE else page_uses(page_id)
    for use in uses:
        if use.key not in words.strings or use.values is None:
            continue  # a missing key is reported above; **mapping cannot be checked statically
        template = words.strings[use.key]
        fields = _fields(template)
        assert fields <= use.values, f"{use.where}: {use.key!r} needs {sorted(fields - use.values)}"
        assert use.values <= fields, f"{use.where}: {use.key!r} does not use {sorted(use.values - fields)}"
        words(use.key, **dict.fromkeys(use.values, _Any()))  # formats (specs such as :, and :.2f included)


# ----- Check yourself: every question's words, and only those ---------------------------------------


def _expected_question_keys(question) -> set[str]:
    keys = {"prompt", *(f"feedback_{m}" for m in question.mistakes), *(f"option_{o}" for o in question.options),
            *(f"unavailable_{r}" for r in question.unavailable)}
    if question.kind == NUMBER:
        keys.add("tolerance")
    if question.kind == PREDICT:
        keys.add("reveal_title")
    return keys


@pytest.mark.parametrize("page_id", PAGE_IDS)
def test_every_question_has_exactly_its_words_in_the_pages_content_file(page_id):
    """ui/check/ declares each question's mistakes, options and reasons (gathered in questions.py); the content file
    words them all."""
    raw = _raw(page_id).get("questions", {})
    questions = QUESTIONS.get(page_id, ())
    assert list(raw) == [q.id for q in questions], f"{page_id}.toml [questions.*] and ui/check/questions.py disagree"
    for q in questions:
        expected, defined = _expected_question_keys(q), set(raw[q.id])
        assert not expected - defined, f"{page_id} question {q.id} lacks {sorted(expected - defined)}"
        assert not defined - expected, f"{page_id} question {q.id} has unused words {sorted(defined - expected)}"
        words = page_text(page_id).questions[q.id]
        assert (words.tolerance is not None) == (q.kind == NUMBER)
        for key in defined - {"tolerance", "prompt"} - {f"feedback_{m}" for m in q.mistakes}:
            if not key.startswith("reveal_"):
                assert "{" not in words(key), f"{page_id} {q.id}.{key} is shown without values to fill in"


def test_a_questions_words_translate_with_english_filling_gaps(root):
    _write(root, "en", "quiz", """
title = "Quiz"
intro = "I"
[questions.score]
prompt = "The score of {token}?"
tolerance = 0.005
feedback_weight = "Not yet: {given} is the weight."
""")
    fr = fake_catalog({("quiz", "The score of {token}?"): "Le score de {token} ?"})
    words = load_page_text("quiz", "fr", root=root, translate=fr).questions["score"]
    assert words("prompt", token="x") == "Le score de x ?"
    assert words("feedback_weight", given="0.1") == "Not yet: 0.1 is the weight."  # English fills the gap
    assert words.tolerance == 0.005  # numbers are set once, in English
    assert load_page_text("quiz", "de", root=root, translate=fr).questions["score"]("prompt", token="y") == \
        "The score of y?"


def test_only_words_go_through_the_catalog_never_formulas_or_tolerances(root):
    _write(root, "en", "quiz", 'title = "Q"\nintro = "I"\nformula = "x^2"\n'
                               '[steps.scores]\ncaption = "C"\nformula = "y^2"\n'
                               '[questions.score]\nprompt = "P"\ntolerance = 0.01\n')
    asked: list[tuple[str, str]] = []
    load_page_text("quiz", "fr", root=root, translate=lambda text, lang, ctx: asked.append((ctx, text)) or text)
    assert sorted(asked) == [("quiz", "C"), ("quiz", "I"), ("quiz", "P"), ("quiz", "Q")]


@pytest.mark.parametrize("bad", [
    '[questions.score]\ntolerance = 0.1\n',  # no prompt
    '[questions.score]\nprompt = "P"\ntolerance = -1\n',
    '[questions.score]\nprompt = "P"\ntolerance = true\n',
    '[questions]\nscore = "P"\n',
])
def test_malformed_questions_are_reported_with_their_path(root, bad):
    _write(root, "en", "quiz", 'title = "Q"\nintro = "I"\n' + bad)
    with pytest.raises(ValueError, match="quiz.toml"):
        load_page_text("quiz", root=root)


# ----- the page scripts carry no prose -------------------------------------------------------

MAX_WORDS = 1  # an identifier like "qkv_bias" may stay in code; two words are prose
PROSE_CALLS = {"markdown", "caption", "subheader", "info", "warning", "error", "success", "title", "header",
               "write", "text", "toast", "expander", "button", "metric", "latex"}
PROSE_KEYWORDS = {"title", "label", "help", "caption", "value_title", "row_title", "col_title"}


def _count(text: str) -> int:
    return sum(1 for w in text.split() if any(c.isalpha() for c in w))  # "**" or "—" is no word


def _words(node: ast.expr) -> int:
    """Words in a string literal, or in an f-string's constant parts; 0 for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _count(node.value)
    if isinstance(node, ast.JoinedStr):
        return sum(_count(v.value) for v in node.values if isinstance(v, ast.Constant))
    return 0


def prose_in(source: str) -> list[str]:
    """Literal strings of more than MAX_WORDS words that a page shows as text."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        shown: list[ast.expr] = [k.value for k in node.keywords if k.arg in PROSE_KEYWORDS]
        func = node.func
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "st"
                and func.attr in PROSE_CALLS and node.args):
            shown.append(node.args[0])
        if isinstance(func, ast.Attribute) and func.attr == "control" and len(node.args) >= 4:
            shown.append(node.args[3])  # page.control(name, default, widget, label, ...)
        found += [f"line {n.lineno}: {ast.unparse(n)[:60]}" for n in shown if _words(n) > MAX_WORDS]
    return found


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_page_scripts_carry_no_prose(script):
    assert not prose_in(script.read_text()), f"{script.name}: move these words to pages/content/en/"


def test_the_prose_check_finds_prose():
    page = '''
st.markdown("Every token takes a turn")
st.subheader(f"Context vector z({q + 1}) for the query")
show_matrix(trace, "weights", labels, labels, title="Attention weights A")
page.control("hidden", 4, st.slider, "Hidden-state size", help="How wide the state is")
st.markdown(page.text("intro"))
st.caption(f"**{name}**")
page.control("qkv_bias", False, st.toggle, "qkv_bias")
'''
    found = prose_in(page)
    assert [f.split(":")[0] for f in found] == ["line 2", "line 3", "line 4", "line 5", "line 5"], found


# ----- the loader's rules, on a content folder of our own ---------------------------------------


def _write(root: Path, lang: str, name: str, text: str) -> None:
    (root / lang).mkdir(parents=True, exist_ok=True)
    (root / lang / f"{name}.toml").write_text(text, encoding="utf-8")


def fake_catalog(entries: dict[tuple[str, str], str]):
    """A translate function for French holding ``entries`` ((context, English) -> French)."""
    def translate(text: str, lang: str, context: str) -> str:
        return entries.get((context, text), text) if lang == "fr" else text
    return translate


FR = fake_catalog({("demo", "Demo"): "Démo", ("demo", "Context vector z({q})"): "Vecteur de contexte z({q})"})


@pytest.fixture
def root(tmp_path: Path) -> Path:
    _write(tmp_path, "en", "demo", """
title = "Demo"
intro = '''Some **Markdown**.'''
formula = '''\\alpha_{ij} = \\frac{1}{2}'''
[text]
heading = "Context vector z({q})"
caption = "Only in English"
""")
    return tmp_path


def test_a_translation_replaces_what_it_has(root):
    words = load_page_text("demo", "fr", root=root, translate=FR)
    assert words.title == "Démo"
    assert words("heading", q=2) == "Vecteur de contexte z(2)"


def test_a_string_missing_from_a_translation_falls_back_to_english(root):
    words = load_page_text("demo", "fr", root=root, translate=FR)
    assert words("caption") == "Only in English"
    assert words.intro == "Some **Markdown**."
    assert words.formula == "\\alpha_{ij} = \\frac{1}{2}"  # literal string: backslashes kept


def test_a_language_without_a_catalog_is_english(root):
    words = load_page_text("demo", "de", root=root)  # the real catalogs: no German
    assert (words.title, words("heading", q=1), words("caption")) == ("Demo", "Context vector z(1)", "Only in English")


def test_a_key_missing_in_english_is_a_key_error_naming_page_language_and_key(root):
    with pytest.raises(KeyError) as err:
        load_page_text("demo", root=root)("no_such_key")
    message = str(err.value)
    assert "demo" in message and "no_such_key" in message and "'en'" in message
    with pytest.raises(KeyError, match="fr"):
        load_page_text("demo", "fr", root=root, translate=FR)("no_such_key")


def test_a_missing_placeholder_value_is_an_error(root):
    with pytest.raises(KeyError, match="q"):
        load_page_text("demo", root=root)("heading")


def test_a_page_without_english_words_is_an_error(root):
    with pytest.raises(FileNotFoundError, match="only-french"):
        load_page_text("only-french", "fr", root=root)


@pytest.mark.parametrize("bad", [
    'title = "T"\nintro = "I"\nfromula = "x"\n',  # a typo is not silently ignored
    'title = "T"\nintro = ""\n',  # an intro is required
    'title = "T"\nintro = "I"\n[text]\nn = 3\n',  # strings only
    'title = "T"\nintro = "I\n',  # not TOML
])
def test_malformed_files_are_reported_with_their_path(root, bad):
    _write(root, "en", "bad", bad)
    with pytest.raises(ValueError, match="bad.toml"):
        load_page_text("bad", root=root)


def test_app_text_reads_the_app_file_with_the_same_fallback(root, monkeypatch):
    _write(root, "en", APP_FILE, '[text]\npage_title = "Attention"\ngreeting = "Hello {name}"\n')
    monkeypatch.setattr(content, "CONTENT_ROOT", root)
    monkeypatch.setattr(content.i18n, "translate", fake_catalog({(APP_FILE, "Attention"): "Attention (fr)"}))
    content.clear_cache()
    try:
        assert app_text("page_title", "fr") == "Attention (fr)"
        assert app_text("greeting", "fr", name="Ada") == "Hello Ada"
        assert app_text("page_title", "de") == "Attention"
        with pytest.raises(KeyError, match="nope"):
            app_text("nope")
    finally:
        content.clear_cache()


def test_words_are_read_once_per_process_page_and_language():
    content.clear_cache()
    assert page_text("home") is page_text("home")
    assert page_text("home", "ko") is page_text("home", "ko") is not page_text("home")


def test_the_content_folder_does_not_depend_on_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert CONTENT_ROOT == ROOT / "pages" / "content"
    assert load_page_text("home").title == page_text("home").title
