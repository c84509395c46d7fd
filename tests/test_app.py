"""AppTest for every page: it runs, its controls matter, it shows the book's numbers,
and the shared matrix survives page switches. (Editing the data editor itself needs a
real browser: see tests/browser.)"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Radio, Selectbox, SelectSlider, Slider

from tests.apptest import BOOK_VALUES, shown_text
from tests.apptest import open_page as open_at
from ui.chapter import PAGES
from ui.inputs.matrix import InputMatrix, book_matrix
from ui.state import Key
from ui.words.content import app_text

APP = str(Path(__file__).resolve().parents[1] / "app.py")
BY_ID = {p.page_id: p for p in PAGES}


def open_page(page_id: str, **state) -> AppTest:
    return open_at(page_id, state=state)


def fingerprint(at: AppTest) -> str:
    """Everything the main area displays: text, tables and chart specs with their data."""
    h = hashlib.sha256(shown_text(at).encode())
    for el in at.main:
        for node in _walk(el):
            if getattr(node, "type", None) == "vega_lite_chart":
                h.update(node.proto.SerializeToString())
    return h.hexdigest()


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values() if isinstance(getattr(node, "children", None), dict) else []:
        yield from _walk(child)


@pytest.mark.parametrize("page", PAGES, ids=[p.page_id for p in PAGES])
def test_page_runs_cleanly(page):
    at = open_page(page.page_id)
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert at.title[0].value == page.title


@pytest.mark.parametrize("page_id", list(BOOK_VALUES))
def test_defaults_show_the_chapter_values(page_id):
    at = open_page(page_id)
    text = shown_text(at)
    missing = [v for v in BOOK_VALUES[page_id] if v not in text]
    assert not missing, f"{page_id} does not show {missing}"


def test_efficient_variants_all_agree_by_default():
    at = open_page("efficient")
    table = at.table[0].value
    assert table["equal within 1e-5"].tolist() == ["yes"] * 5
    weights = table["weights: max |diff|"].tolist()
    assert weights[3] == "not returned"  # SDPA never stores the weights
    assert all(float(w) <= 1e-5 for i, w in enumerate(weights) if i != 3)
    at.number_input(key="w:efficient:d_out").set_value(4).run()
    agree = at.table[0].value["equal within 1e-5"].tolist()
    assert agree[:4] == ["yes"] * 4
    assert agree[4].startswith("unavailable") and "d_in == d_out" in agree[4]


# ----- every control changes what is displayed ---------------------------------------

# Controls that only matter once another control is set (dropout needs p > 0 first).
PRECONDITIONS = {
    "Training mode (dropout active)": ("select_slider", "Dropout rate p", 0.5),
    "Dropout seed": ("select_slider", "Dropout rate p", 0.5),
}


def _controls(at: AppTest):
    found = []
    for kind in ("toggle", "slider", "number_input", "selectbox", "radio", "select_slider", "text_area", "button"):
        for w in getattr(at, kind):
            if w.key and str(w.key).startswith("w:") or kind == "button" and w.key == "time_variants":
                found.append((kind, w.label))
    return found


def _find(at: AppTest, kind: str, label: str):
    return next(w for w in getattr(at, kind) if w.label == label)


def _change(widget, kind: str):
    if kind == "toggle":
        return widget.set_value(not widget.value)
    if kind == "button":
        return widget.click()
    if kind == "text_area":
        return widget.set_value(widget.value + "\nThe end is near.")
    if kind in ("selectbox", "radio", "select_slider"):
        options = list(widget.options)
        current = widget.format_func(widget.value) if hasattr(widget, "format_func") else str(widget.value)
        assert len(options) > 1, f"{widget.label!r} has a single option here ({options}): a listed control must change"
        other = next(o for o in options if o != current)
        if kind == "selectbox":
            return widget.select_index(options.index(other))
        return widget.set_value(_option_value(widget, other))
    if kind in ("slider", "number_input"):
        value = widget.value
        step = widget.step or 1
        high = widget.max if widget.max is not None else value + step
        new = value + step if value + step <= high else value - step
        if isinstance(value, int):
            new = int(new)
        else:
            new = round(new, 6)
        return widget.set_value(new)
    raise AssertionError(kind)


def _option_value(widget, shown: str):
    for candidate in _raw_options(widget):
        try:
            label = str(widget.format_func(candidate))
        except (TypeError, ValueError):  # a candidate of another kind (a word for a number's format)
            continue
        if label == shown:
            return candidate
    return shown


def _raw_options(widget):
    """Candidates for the raw option behind a formatted one (the proto keeps only labels)."""
    from attention import NORMALISATIONS

    return [*NORMALISATIONS, *range(0, 129), *(round(i * 0.05, 6) for i in range(41)), *widget.options]


CONTROL_CASES = []
for _page in PAGES:
    _at = open_page(_page.page_id)
    for _kind, _label in _controls(_at):
        CONTROL_CASES.append(pytest.param(_page.page_id, _kind, _label, id=f"{_page.page_id}:{_label}"))


@pytest.mark.parametrize("page_id,kind,label", CONTROL_CASES)
def test_each_control_changes_what_is_displayed(page_id, kind, label):
    at = open_page(page_id)
    if label in PRECONDITIONS:
        pk, plabel, pvalue = PRECONDITIONS[label]
        _find(at, pk, plabel).set_value(pvalue).run()
    before = fingerprint(at)
    _change(_find(at, kind, label), kind).run()
    assert not at.exception, [e.value for e in at.exception]
    assert fingerprint(at) != before, f"changing {label!r} on {page_id} changed nothing on screen"


def test_a_listed_control_left_with_a_single_option_fails_instead_of_being_skipped():
    from types import SimpleNamespace

    lone = SimpleNamespace(label="Query token", options=["x(1) “Your”"], value=0, format_func=lambda v: "x(1) “Your”")
    with pytest.raises(AssertionError, match="single option"):
        _change(lone, "selectbox")


# ----- the shared matrix --------------------------------------------------------------


def edited_matrix() -> InputMatrix:
    m = book_matrix()
    values = np.array(m.values)
    values[1, 0] = 0.9  # journey, d1
    return InputMatrix(m.tokens[:5] + ("stride",), values)


def sidebar_tokens(at: AppTest) -> list[str]:
    """The token column of the sidebar's matrix editor, as the learner reads it."""
    (editor,) = at.sidebar.dataframe
    return editor.value["token"].tolist()


def test_matrix_edit_is_kept_across_page_switches():
    at = open_page("all-queries", matrix=edited_matrix())
    first = shown_text(at)
    assert "[0.9995, 0.9544" not in first  # the book's scores no longer hold
    assert sidebar_tokens(at)[-1] == "stride"  # the sidebar's matrix editor shows the edited token
    for page in ("one-query", "weight-splits", "all-queries"):
        at.switch_page(BY_ID[page].file)
        at.run()
        assert not at.exception
        assert at.session_state["matrix"] == edited_matrix()
        assert sidebar_tokens(at) == list(edited_matrix().tokens), page
    assert shown_text(at) == first


def test_matrix_width_control_pads_with_zeros():
    at = open_page("all-queries")
    at.sidebar.number_input(key="matrix_width").set_value(5).run()
    matrix = at.session_state["matrix"]
    assert matrix.dim == 5
    assert np.all(matrix.values[:, 3:] == 0)
    assert not at.exception and not at.error


def test_controls_are_kept_per_page_across_switches():
    at = open_page("causal-mask")
    at.number_input(key="w:causal-mask:seed").set_value(1).run()
    at.switch_page(BY_ID["dropout"].file)
    at.run()
    at.switch_page(BY_ID["causal-mask"].file)
    at.run()
    assert at.number_input(key="w:causal-mask:seed").value == 1
    assert "[0.1921, 0.1646" not in shown_text(at)


def test_text_embeddings_become_the_input_of_every_page():
    import attention

    at = open_page("text-to-attention")
    (button,) = [b for b in at.button if b.label.startswith("Use “")]
    assert button.label == "Use “i wonder what will come next” as the input on every page"
    button.click().run()
    assert not at.exception
    matrix = at.session_state["matrix"]
    sentences = ["I wonder what will come next!", "This is a basic example paragraph.", "What comes next?"]
    expected = attention.text_to_attention(sentences, d_model=8, num_heads=4, seed=123).trace["query_inputs"]
    assert matrix.tokens == ("i", "wonder", "what", "will", "come", "next")
    np.testing.assert_allclose(matrix.values, expected.numpy(), atol=5e-5)  # rounded to 4 decimals
    assert any("Now the input of every page" in s.value for s in at.sidebar.success)
    at.switch_page(BY_ID["all-queries"].file)
    at.run()
    assert not at.exception
    scores = attention.simple_self_attention(matrix.tensor())["scores"]
    assert repr(scores) in shown_text(at)  # the other pages now compute with these embeddings


def test_the_matrix_editor_shows_every_decimal_the_matrix_holds():
    """The editor shows each value's own digits: never rounded (0.8768 as 0.88), never padded."""
    from ui.inputs.matrix import InputMatrix, format_value

    values = np.array([[0.8768, 0.43, -1.0], [123.25, 0.0001, 0.1]], dtype=np.float32)
    frame = InputMatrix(("a", "b"), values).editor_frame()
    assert frame.values[:, 1:].tolist() == [["0.8768", "0.43", "-1"], ["123.25", "0.0001", "0.1"]]
    assert all(np.float32(float(format_value(v))) == v for v in values.ravel())  # reads back exactly
    at = open_page("all-queries")
    shown = at.sidebar.dataframe[0].value
    assert shown["d1"].tolist() == ["0.43", "0.55", "0.57", "0.22", "0.77", "0.05"]


def test_page_files_are_not_named_after_their_url_paths():
    """Streamlit's legacy pages/ scan would run such a file without app.py's frame (ui/shell/serve.py)."""
    assert all(Path(p.file).stem != p.page_id for p in PAGES)
    assert all((Path(APP).parent / p.file).is_file() for p in PAGES)


def test_every_normalisation_has_a_name_on_screen():
    from attention import NORMALISATIONS
    from ui.page import normalisation_name

    names = [normalisation_name(m) for m in NORMALISATIONS]
    assert all(names) and len(set(names)) == len(NORMALISATIONS)


SOURCE_PAGES = [p.page_id for p in PAGES
                if "show_source(" in (Path(__file__).resolve().parents[1] / p.file).read_text(encoding="utf-8")]


@pytest.mark.parametrize("page_id", SOURCE_PAGES)
def test_the_code_that_ran_is_drawn_once_its_section_is_opened(page_id):
    # A folded section draws nothing while closed (the browser then rebuilds nothing on an edit),
    # and the package's own source once the learner opens it.
    from ui.state import fold_key

    def listings(at: AppTest) -> list[str]:
        return [c.value for c in at.code if c.language == "python" and ("def " in c.value or "class " in c.value)]

    at = open_at(page_id)
    assert listings(at) == []
    at.session_state[fold_key("source")] = True
    at.run()
    assert not at.exception
    shown = listings(at)
    assert shown, "opening 'The code that ran' shows no source"


def test_the_code_that_ran_says_what_its_bookkeeping_lines_do_and_mentions_new_marks_only_where_there_are_some():
    # m14: the "# new:" note stood on pages whose code has no class and no mark
    from ui.state import fold_key
    from ui.words.content import app_text

    def captions(page_id: str) -> tuple[list[str], list[str]]:
        at = open_at(page_id, state={fold_key("source"): True})
        assert not at.exception
        return [c.value for c in at.caption], [c.value for c in at.code if c.language == "python"]

    shown, code = captions("one-query")
    assert app_text("code_records", "en") in shown and app_text("code_new_marker", "en") not in shown
    assert code and not any("# new:" in c for c in code)
    shown, code = captions("causal-class")
    assert app_text("code_records", "en") in shown and app_text("code_new_marker", "en") in shown
    assert any("# new:" in c for c in code)


def test_the_presets_panel_draws_only_when_opened_and_loads_reset_and_random_presets():
    from ui.state import Key, fold_key

    at = open_page("all-queries")
    assert not [s for s in at.sidebar.selectbox if s.key == Key.PRESET]  # folded: nothing drawn
    at.session_state[fold_key("presets")] = True
    at.run()
    at.sidebar.selectbox(key=Key.PRESET).set_value("random").run()
    at.sidebar.number_input(key=Key.RAND_TOKENS).set_value(4).run()
    at.sidebar.number_input(key=Key.RAND_DIM).set_value(2).run()
    at.sidebar.button(key="load_preset").click().run()
    assert not at.exception
    assert (at.session_state[Key.MATRIX].num_tokens, at.session_state[Key.MATRIX].dim) == (4, 2)
    assert any("Random" in s.value or "random" in s.value for s in at.sidebar.success)
    at.sidebar.button(key="reset_matrix").click().run()
    assert at.session_state[Key.MATRIX] == book_matrix()


def test_the_share_panel_offers_download_and_upload_once_opened():
    from ui.state import fold_key

    at = open_page("all-queries")
    assert at.sidebar.get("file_uploader") == [] and at.sidebar.get("download_button") == []  # folded
    at.session_state[fold_key("share")] = True
    at.run()
    assert not at.exception
    assert len(at.sidebar.get("file_uploader")) == 1 and len(at.sidebar.get("download_button")) == 1


def test_the_softmax_stability_demo_is_drawn_once_opened():
    from ui.state import fold_key

    def demo_tables(at: AppTest) -> list[str]:
        return [str(t.value) for t in at.table if "overflows" in str(t.value)]

    at = open_page("one-query")
    assert demo_tables(at) == []
    at.session_state[fold_key("stability")] = True
    at.run()
    assert not at.exception and len(demo_tables(at)) == 1
    # the point of the demo, the stable column, reads at the book's 4 decimals (not 0.09003057330846786)
    assert "[0.0900, 0.2447, 0.6652]" in demo_tables(at)[0] and "0.09003" not in demo_tables(at)[0]


def test_a_new_d_out_keeps_the_nearest_head_count_that_divides_it_and_says_so():
    at = open_page("weight-splits", **{Key.CONTROLS: {"weight-splits": {"d_out": 4, "num_heads": 4}}})
    assert at.select_slider(key="w:weight-splits:num_heads").value == 4
    at.number_input(key="w:weight-splits:d_out").set_value(3).run()
    assert not at.exception
    assert at.select_slider(key="w:weight-splits:num_heads").value == 3  # not 1
    assert any("4 heads do not divide d_out = 3: now 3" in c.value for c in at.caption)
    at.number_input(key="w:weight-splits:d_out").set_value(4).run()  # 3 heads, d_out 4: 2 or 4, the nearer
    assert at.select_slider(key="w:weight-splits:num_heads").value in (2, 4)


def test_exercise_3_3s_answer_is_not_printed_above_its_question():
    at = open_page("weight-splits")
    assert "2,360,064" not in shown_text(at) and "2360064" not in shown_text(at)
    assert "Exercise 3.3" in " ".join(s.value for s in at.header)


def test_a_page_that_computes_twice_offers_one_download_with_both():
    for page_id in ("dropout", "long-sequences"):
        at = open_page(page_id)
        labels = [b.proto.label for b in at.get("download_button")]
        links = [h.proto.body for h in at.get("html") if 'class="download-link"' in h.proto.body]
        assert labels == [app_text("download_results")], (page_id, labels)
        assert len(links) == 1 and app_text("notebook_button") in links[0], (page_id, links)



def _held(w) -> object:
    """The value the session holds for the widget, as its proto says a value: a choice among options by its index
    (a select slider's by its label)."""
    if isinstance(w, SelectSlider):
        return w.format_func(w.value)
    return w.index if isinstance(w, Selectbox | Radio) else w.value


def _shown_afresh(w) -> object:
    """What a browser that mounts the widget afresh shows: the value set with it this run, else its declared
    default."""
    p = w.proto
    if p.set_value:
        return _held(w)
    if isinstance(w, SelectSlider):
        return p.options[int(p.default[0])]
    return p.default[0] if isinstance(w, Slider) else p.default


def test_every_control_shows_the_sessions_value_when_mounted_afresh_and_is_not_set_again_unchanged():
    """A widget the browser mounts afresh (another page, a rebuilt layout) must show the value the session holds,
    not the widget's own first option, minimum or off: else the browser sends that back as the learner's change (a
    console once published "Your" and divide-by-sum to the class). Every control declares the session's value as its
    default, and is set only where it does not hold it: set on every run, each widget was redrawn whole in the
    browser on every edit (16 ms of 3.3.1's 106, benchmarks/bench_floor.py)."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page(BY_ID["walkthrough"].file).run()
    at.query_params["walk"] = "5"
    for _ in range(2):  # the second run changes nothing
        at.run()
        controls = [w for kind in ("selectbox", "toggle", "radio", "number_input", "slider", "select_slider")
                    for w in getattr(at, kind) if (w.key or "").startswith(("w:", "walk:"))]
        assert controls and all(_shown_afresh(w) == _held(w) for w in controls), \
            [(w.key, _shown_afresh(w), _held(w)) for w in controls]
    assert not any(w.proto.set_value for w in controls), [w.key for w in controls if w.proto.set_value]


def test_the_causal_mask_on_the_last_query_says_why_nothing_changes():
    """3.3.1 with the mask on and the last token as the query: the mask hides nothing, and the page says so."""
    from ui.words.content import page_text

    at = open_at("one-query")
    at.toggle(key="w:one-query:causal").set_value(True).run()
    hint = page_text("one-query", "en")("mask_hides_nothing", token="x").split("“")[0]
    assert not any(hint in c.value for c in at.caption)  # query x(2): the mask hides the keys after it
    at.selectbox(key="w:one-query:query").set_value(5).run()
    assert any(hint in c.value for c in at.caption)
    at.toggle(key="w:one-query:causal").set_value(False).run()
    assert not any(hint in c.value for c in at.caption)


def test_stacked_heads_say_why_untrained_heads_can_look_alike():
    """m15: heads that look identical on the book's input, with nothing saying why; one head has nothing to compare."""
    from ui.words.content import page_text

    hint = page_text("stacking-heads", "en")("heads_alike")[:40]
    at = open_at("stacking-heads")
    assert any(hint in c.value for c in at.caption)
    at.number_input(key="w:stacking-heads:num_heads").set_value(1).run()
    assert not any(hint in c.value for c in at.caption)


def test_tensors_printed_side_by_side_are_one_element_each_row_in_the_pages_order():
    """3.4.1's three rows of printed tensors (the weights, the query's projections, the keys and values) are one HTML
    element each, not a block of columns with a tensor in each: every run draws them all again. The book's values,
    in its order, as the trace holds them."""
    from attention import self_attention_step_by_step
    from ui.draw import printed_in, tensor_text

    at = open_at("trainable-steps")
    rows = [printed_in(el.proto.body) for el in at.get("html") if 'class="tensor-row"' in el.proto.body]
    trace = self_attention_step_by_step(book_matrix().tensor(), d_out=2, seed=123, query_index=1)
    assert rows == [[tensor_text(trace[name]) for name in names] for names in (
        ("W_query", "W_key", "W_value"), ("query", "key_of_query", "value_of_query"), ("keys", "values"))]
