"""The house: the folder tree shows the app's parts, and imports between them go one way.

- ``pages/`` holds one script per navigation page, ``<section>_<page-id>.py``, and nothing else.
  Streamlit's legacy scan names each file after its URL path, so a first visitor's deep link on a
  fresh server finds it (ui/script.py); each script starts with ``start_page(<its id>)``.
- ``ui/`` has a few top-level modules; everything else is in packages whose ``__init__`` says what
  they own. Its parts are layered (:data:`LAYERS`): a part imports only parts below it.
- No import cycle among the project's modules, counting imports inside functions too.
- No module under ``tests/`` imports a test module (``tests.test_*``, ``tests.browser.test_*``): shared
  helpers live in helper modules (tests/apptest.py, tests/lecture_apptest.py, tests/browser/harness.py).
- Only modules named ``state.py`` touch ``st.session_state``; every widget key is built from the
  registry (``ui.state.Key``), whose values are unique.
- The Layout section of docs/architecture.md (the README links to it) names every part of ``ui/``.
"""

from __future__ import annotations

import ast
import re
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest
from streamlit.source_util import page_icon_and_name

from ui.chapter import PAGES
from ui.state import Key

ROOT = Path(__file__).resolve().parents[1]
MAX_TOP_LEVEL = 12

# ui's parts, top to bottom: a part may import only the parts after it (and itself).
LAYERS = (
    "ui.catalog",  # a developer tool over every word: reads the walkthrough too
    "ui.catalog_sources",  # what the English source says: the catalog's messages
    "ui.shell",
    "ui.follow",  # a following student's light page: the rooms' ids and the words, no Streamlit
    "ui.lecture",
    "ui.page",
    "ui.check",
    "ui.sharing",
    "ui.steps",
    "ui.announce",
    "ui.inputs",
    "ui.draw",
    "ui.chapter",
    "ui.state",
    "ui.words",
    "ui.script",
    "ui.settings",
    "ui.keys",  # the registry of every session key (re-exported by ui.state): names only, it imports nothing
)


# ----- the import graph ---------------------------------------------------------------------


def project_modules() -> dict[str, Path]:
    """Dotted name -> file of every Python file git tracks (pages by their path: they are scripts)."""
    files = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    modules = {}
    for line in files.stdout.split():
        parts = Path(line).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = ROOT / line
    return modules


def absolute_base(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from ... import`` names, relative imports resolved against ``package``."""
    if not node.level:
        return node.module or ""
    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
    return ".".join([*up, *([node.module] if node.module else [])])


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports anywhere in its file (inside functions too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = absolute_base(node, package)
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            # ``from . import charts`` imports the submodule; the package itself only for a name it defines
            targets = submodules + ([base] if any(m not in known for m in submodules) else [])
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports_of(name, path, set(modules)) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path (first node repeated at the end), or None."""
    colour: dict[str, int] = defaultdict(int)  # 0 unseen, 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if colour[nxt] == 1:
                return path[path.index(nxt):] + [nxt]
            if colour[nxt] == 0 and (cycle := visit(nxt)):
                return cycle
        colour[node] = 2
        path.pop()
        return None

    for start in sorted(graph):
        if colour[start] == 0 and (cycle := visit(start)):
            return cycle
    return None


def part_of(module: str) -> str | None:
    """The part of ui a module belongs to (``ui.check.panel`` -> ``ui.check``), or None outside ui."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "ui" and len(parts) > 1 else None


def upward_imports(graph: dict[str, set[str]], layers: tuple[str, ...] = LAYERS) -> list[str]:
    """Every import from a part of ui to a part above it (or to a part the layers do not list)."""
    rank = {part: i for i, part in enumerate(layers)}
    wrong = []
    for module, targets in graph.items():
        source = part_of(module)
        for target in targets:
            goal = part_of(target)
            if source is None or goal is None or source == goal:
                continue
            if source not in rank or goal not in rank or rank[goal] < rank[source]:
                wrong.append(f"{module} -> {target}")
    return sorted(wrong)


def test_no_import_cycle_among_the_projects_modules():
    assert find_cycle(import_graph()) is None


def test_the_cycle_check_finds_a_cycle(tmp_path):
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None
    # and the parser sees relative imports inside functions
    source = "def f():\n    from .. import state\n    from .panel import x\n"
    path = tmp_path / "probe.py"
    path.write_text(source)
    assert imports_of("ui.check.probe", path, {"ui.state", "ui.check.panel"}) == {"ui.state", "ui.check.panel"}


def test_uis_parts_import_only_the_parts_below_them():
    graph = import_graph()
    assert {part_of(m) for m in graph if part_of(m)} == set(LAYERS), "a part of ui is missing from LAYERS"
    assert upward_imports(graph) == []


def test_the_layer_check_finds_an_upward_import():
    graph = {"ui.draw.show": {"ui.state"}, "ui.state": {"ui.draw.show"}, "ui.page": {"ui.check.panel"}}
    assert upward_imports(graph, ("ui.page", "ui.check", "ui.draw", "ui.state")) == ["ui.state -> ui.draw.show"]


def test_the_library_imports_nothing_of_the_app():
    graph = import_graph()
    leaks = {f"{m} -> {t}" for m, targets in graph.items() if m.startswith("attention") for t in targets
             if not t.startswith("attention")}
    assert leaks == set()


def imported_test_modules(source: str, package: str) -> set[str]:
    """The test modules (a ``test_*`` part under ``tests``) that ``source``, in ``package``, imports anywhere."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = absolute_base(node, package)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            parts = name.split(".")
            hit = next((i for i, part in enumerate(parts) if i and part.startswith("test_")), None)
            if parts[0] == "tests" and hit is not None:
                found.add(".".join(parts[: hit + 1]))
    return found


def test_no_test_module_imports_another():
    """A helper two suites share lives in a helper module, not in one of the suites (each runs on its own)."""
    wrong = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        package = ".".join(path.relative_to(ROOT).parent.parts)
        if found := imported_test_modules(path.read_text(encoding="utf-8"), package):
            wrong[str(path.relative_to(ROOT))] = sorted(found)
    assert wrong == {}


def test_the_test_import_check_finds_a_test_module_imported_anywhere():
    source = ("from tests.test_app import BOOK_VALUES\nimport tests.test_class\nfrom tests.apptest import open_page\n"
              "def f():\n    from .test_console import texts\n    from . import lecture_apptest, test_polls\n"
              "from tests.browser.harness import wait_idle\nfrom tests.browser import test_e2e\n")
    assert imported_test_modules(source, "tests") == {
        "tests.test_app", "tests.test_class", "tests.test_console", "tests.test_polls", "tests.browser.test_e2e"}
    assert imported_test_modules("from ..test_lecture import walk_app\n", "tests.browser") == {"tests.test_lecture"}


# ----- the folders ----------------------------------------------------------------------------


def test_ui_has_few_top_level_modules_and_packages_that_say_what_they_own():
    top = sorted(p.name for p in (ROOT / "ui").glob("*.py") if p.name != "__init__.py")
    assert len(top) <= MAX_TOP_LEVEL, top
    packages = sorted(p.parent for p in (ROOT / "ui").glob("*/__init__.py"))
    assert len(packages) >= 6
    for package in [ROOT / "ui", *packages]:
        doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 15, f"{package.relative_to(ROOT)}/__init__.py: say what it owns"
    assert not list((ROOT / "ui").glob("*/*/__init__.py")), "one level of packages is enough"


def test_pages_holds_one_script_per_navigation_page_and_nothing_else():
    scripts = sorted(p.name for p in (ROOT / "pages").glob("*.py"))
    assert scripts == sorted(Path(p.file).name for p in PAGES)
    assert all(Path(p.file).parent.name == "pages" for p in PAGES)


@pytest.mark.parametrize("info", PAGES, ids=lambda p: p.page_id)
def test_the_legacy_scan_names_each_page_file_after_its_url_path(info):
    """What Streamlit's first run (legacy pages/ scan) calls a file is the URL a deep link asks for."""
    assert page_icon_and_name(ROOT / info.file)[1] == info.page_id
    assert re.fullmatch(r"\d+_" + re.escape(info.page_id) + r"\.py", Path(info.file).name)


@pytest.mark.parametrize("info", PAGES, ids=lambda p: p.page_id)
def test_each_page_script_starts_with_its_own_start_page(info):
    """start_page runs app.py instead when the legacy scan runs the file alone: nothing may draw before it."""
    body = [n for n in ast.parse((ROOT / info.file).read_text(encoding="utf-8")).body
            if not isinstance(n, ast.Import | ast.ImportFrom)]
    first = next(i for i, n in enumerate(body) if any(isinstance(c, ast.Call) for c in ast.walk(n)))
    assert all(isinstance(n, ast.Assign) for n in body[:first]), f"{info.file}: only constants before start_page"
    call = body[first].value if isinstance(body[first], ast.Assign) else None
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "start_page", info.file
    assert [a.value for a in call.args if isinstance(a, ast.Constant)] == [info.page_id]


# ----- session state --------------------------------------------------------------------------


def app_sources() -> list[Path]:
    return [ROOT / "app.py", *sorted((ROOT / "ui").rglob("*.py")), *sorted((ROOT / "pages").glob("*.py"))]


def test_only_state_modules_touch_the_session_state():
    touching = sorted(str(p.relative_to(ROOT)) for p in app_sources() if "session_state" in p.read_text("utf-8"))
    assert touching and all(Path(p).name == "state.py" for p in touching), touching


def test_the_key_registry_has_no_two_keys_alike():
    values = [v for k, v in vars(Key).items() if k.isupper()]
    assert len(values) == len(set(values))
    prefixes = [v for v in values if v.endswith((":", "_"))]
    for prefix in prefixes:  # a prefixed key never equals nor starts another key
        assert not [v for v in values if v != prefix and v.startswith(prefix)], prefix


def widget_keys(source: str) -> list[str]:
    """Every ``key=`` given to a Streamlit call that is not built from the registry (as source text)."""
    loose = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        for kw in node.keywords:
            if kw.arg != "key" or isinstance(kw.value, ast.Lambda):
                continue
            value = kw.value
            if isinstance(value, ast.JoinedStr):  # f"{Key.PREFIX}{...}": the registry's prefix first
                value = value.values[0].value if isinstance(value.values[0], ast.FormattedValue) else value
            if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "Key":
                continue
            if isinstance(value, ast.Call | ast.Name):  # a key function of a state module, or a parameter
                continue
            loose.append(ast.unparse(kw.value))
    return loose


def test_every_widget_key_comes_from_the_registry():
    loose = {str(p.relative_to(ROOT)): widget_keys(p.read_text("utf-8")) for p in app_sources()}
    assert {k: v for k, v in loose.items() if v} == {}


def test_the_widget_key_check_finds_a_literal_key():
    source = 'st.button("a", key="x")\nst.button("b", key=f"y:{i}")\nst.button("c", key=f"{Key.FOLD_PREFIX}{i}")\n'
    assert widget_keys(source) == ["'x'", "f'y:{i}'"]


# ----- the layout page ----------------------------------------------------------------------


def layout_section() -> str:
    """The Layout section of docs/architecture.md: from its heading to the next section."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    parts = re.split(r"^## Layout[ \t]*$", page, maxsplit=1, flags=re.M)
    assert len(parts) == 2, "docs/architecture.md has no '## Layout' section"
    return parts[1].split("\n## ", 1)[0]


def test_the_architecture_pages_layout_names_every_part_of_ui():
    layout = layout_section()
    parts = [p.name + "/" for p in (ROOT / "ui").iterdir() if (p / "__init__.py").is_file()]
    parts += [p.name for p in (ROOT / "ui").glob("*.py") if p.name != "__init__.py"]
    missing = [part for part in parts if not re.search(rf"^\s+{re.escape(part)}\s", layout, flags=re.M)]
    assert missing == []
    gone = [name for name in re.findall(r"^  (\w+(?:\.py|/))\s", layout.split("ui/", 1)[1].split("\nlocales/")[0],
                                      flags=re.M) if not (ROOT / "ui" / name).exists()]
    assert gone == []
