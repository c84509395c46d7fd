"""What a screen reader hears (ui/announce): sentences built from the package's results, and the marker each run
leaves, whose count moves once per change and only when what the page shows changed."""

from __future__ import annotations

import re
from html import unescape

from attention import book_inputs, causal_attention_step_by_step, simple_attention_for_query
from tests.apptest import open_page
from ui.announce import mask_sentence, weights_sentence
from ui.inputs.matrix import book_matrix
from ui.keys import fold_key
from ui.sharing.codec import PARAM, encode_state
from ui.steps import stepper
from ui.words.content import app_text

LABELS = ["Your", "journey", "starts", "with", "one", "step"]


def test_the_weights_sentence_names_the_querys_strongest_key_as_the_package_computes_it():
    trace = simple_attention_for_query(book_inputs(), 1)
    row = trace.applied_weights.tensor
    said = weights_sentence(trace, LABELS, {"query": 1})
    assert said == f"Weights updated: the query “journey” attends most to itself, {float(row.max()):.4f}."
    said = weights_sentence(simple_attention_for_query(book_inputs(), 4), LABELS, {"query": 4})
    row = simple_attention_for_query(book_inputs(), 4).applied_weights.tensor
    assert f"“{LABELS[int(row.argmax())]}”" in said and f"{float(row.max()):.4f}" in said


def test_the_mask_sentence_counts_every_hidden_cell():
    assert mask_sentence(causal_attention_step_by_step(book_inputs())) == "Causal mask on: 15 cells masked."
    assert mask_sentence(simple_attention_for_query(book_inputs(), 1, causal=True)) == \
        "Causal mask on: 4 cells masked."  # one query's row: the four keys after "journey"
    assert mask_sentence(simple_attention_for_query(book_inputs(), 1)).startswith("Causal mask off")
    assert mask_sentence({"no": "trace"}) is None


def _marker(at) -> dict[str, str]:
    html = next(h.proto.body for h in at.get("html") if h.proto.body.startswith('<div class="attention-say"'))
    return {k: unescape(v) for k, v in re.findall(r'data-(\w+)="([^"]*)"', html.split(">", 1)[0])}


def _helps(at) -> dict[str, str]:
    """The marker's help texts, by the class of the widget's box they describe."""
    html = next(h.proto.body for h in at.get("html") if h.proto.body.startswith('<div class="attention-say"'))
    return {k: unescape(v) for k, v in re.findall(r'<span id="help-[^"]*" data-for="([^"]*)">([^<]*)</span>', html)}


def test_a_run_says_only_what_changed_once_and_a_pages_first_run_says_nothing():
    at = open_page("one-query")
    first = _marker(at)
    at.run()
    assert _marker(at)["n"] == first["n"]  # nothing changed: nothing new to say
    at.toggle(key="w:one-query:causal").set_value(True).run()
    said = _marker(at)
    assert int(said["n"]) == int(first["n"]) + 1
    expected = weights_sentence(simple_attention_for_query(book_inputs(), 1, causal=True), LABELS, {"query": 1})
    assert said["say"] == f"Causal mask on: 4 cells masked. {expected}"
    at.run()
    assert _marker(at)["n"] == said["n"]
    at.selectbox(key="w:one-query:query").set_value(2).run()  # another query: it sees one key more
    again = _marker(at)
    assert int(again["n"]) == int(said["n"]) + 1
    assert again["say"].startswith("Causal mask on: 3 cells masked. Weights updated: the query “starts”")


def test_each_step_of_the_step_through_is_said_with_its_caption():
    at = open_page("causal-mask")
    at.toggle(key="step_mode:causal-mask").set_value(True).run()
    said = _marker(at)["say"]
    assert said.startswith("Step 1 of ")
    next_button = next(b for b in at.button if (b.key or "").startswith("step_next:"))
    next_button.click().run()
    assert _marker(at)["say"].startswith("Step 2 of ")


def test_each_help_is_written_where_a_screen_reader_reads_it_for_the_widget_it_belongs_to():
    """The help texts of the controls the run drew, keyed by the class Streamlit gives each widget's box (its key,
    ':' made '-'), without Markdown marks; a help the page did not draw is not there."""
    at = open_page("causal-mask")
    helps = _helps(at)
    assert helps["st-key-w-causal-mask-causal"] == app_text("causal_help")
    assert helps["st-key-w-causal-mask-seed"] == app_text("seed_help").replace("`", "")
    assert helps["st-key-step_mode-causal-mask"] == app_text("step_mode_help")
    assert "st-key-w-causal-mask-num_heads" not in helps  # 3.5.1 has no heads
    assert all("`" not in text and "**" not in text for text in helps.values())


def test_the_trace_says_where_a_query_looks_most_and_how_many_cells_the_mask_hides():
    trace = causal_attention_step_by_step(book_inputs())
    row = trace["masked_weights"][1]
    assert trace.strongest_key(1) == (int(row.argmax()), float(row.max()))
    assert trace.strongest_key(99)[0] == int(trace["masked_weights"][-1].argmax())  # past the end: the last row
    assert trace.hidden_count() == 15
    assert causal_attention_step_by_step(book_inputs(), causal=False).hidden_count() == 0


def test_turning_step_through_off_is_said():
    at = open_page("causal-mask")
    at.toggle(key="step_mode:causal-mask").set_value(True).run()
    on = _marker(at)
    at.toggle(key="step_mode:causal-mask").set_value(False).run()
    off = _marker(at)
    assert int(off["n"]) == int(on["n"]) + 1
    assert off["say"] == app_text("say_step_off")


def test_dropouts_training_switch_says_what_dropout_now_does():
    at = open_page("dropout")
    first = _marker(at)
    at.toggle(key="w:dropout:training").set_value(False).run()
    off = _marker(at)
    assert int(off["n"]) == int(first["n"]) + 1
    assert off["say"].startswith(app_text("say_dropout_off"))
    at.toggle(key="w:dropout:training").set_value(True).run()
    p = float(at.select_slider(key="w:dropout:dropout").value)
    assert _marker(at)["say"].startswith(
        app_text("say_dropout_on", p=f"{p:.4f}", scale=f"{1 / (1 - p):.4f}"))
    at = open_page("causal-class")  # the dropout control the later pages share
    at.toggle(key="w:causal-class:training").set_value(False).run()
    assert app_text("say_dropout_off") in _marker(at)["say"]


def test_a_verdict_is_said_once_per_check_not_again_when_the_inputs_come_back():
    """Answered, then the mask off (the verdict goes stale and is hidden) and on again (the same verdict is shown
    again): the second showing is not said. A new press of Check, even with the same answer, is."""
    page, question = "causal-mask", "left_in_row"
    at = open_page(page, state={fold_key(f"check:{page}"): True})
    right = f"{float(causal_attention_step_by_step(book_inputs())['row_sums'][1]):.4f}"
    at.text_input(key=f"check:{page}:{question}").input(right)
    at.button(key=f"check:{page}:{question}:check").click().run()
    verdict = app_text("check_correct", given=right)
    assert verdict in _marker(at)["say"]
    at.toggle(key=f"w:{page}:causal").set_value(False).run()
    at.toggle(key=f"w:{page}:causal").set_value(True).run()
    back = _marker(at)["say"]
    assert back.startswith("Causal mask on") and verdict not in back
    pressed = int(_marker(at)["n"])
    at.button(key=f"check:{page}:{question}:check").click().run()
    again = _marker(at)
    assert int(again["n"]) == pressed + 1 and again["say"] == verdict


def test_the_marker_gives_the_grid_and_its_cells_names_in_each_language_with_the_fields_the_browser_fills():
    for lang in ("en", "id", "vi", "ko"):
        marker = _marker(open_page("causal-mask", params={"lang": lang}))
        assert marker["grid"] == app_text("a11y_grid", lang=lang)
        # page.js fills the fields from the grid's own cells: the template reaches it with its fields unfilled
        filled = {"token": "journey", "column": "d1", "value": "(the value shown)"}
        assert marker["cellname"].format(**filled) == app_text("a11y_cell_name", lang=lang, **filled)
        assert marker["cellof"].format(**filled) == app_text("a11y_cell_editor_of", lang=lang, **filled)
        assert "{token}" in marker["cellname"] and "{column}" in marker["cellof"]


def test_a_shared_links_notice_is_said_on_the_pages_first_run_and_once_only():
    """A notice is drawn above the page already filled in: the run says it through the live region, on the page's
    first run too (where nothing else is said), and a notice drawn on every run while it holds is said once."""
    shared, _ = encode_state(book_matrix(), {"causal-mask": {"causal": False}})
    at = open_page("causal-mask", params={PARAM: shared})
    assert app_text("link_opened") in [a.value for a in at.success]
    first = _marker(at)
    assert first["say"] == app_text("link_opened") and int(first["n"]) == 1
    at.run()
    assert _marker(at)["n"] == first["n"]  # drawn again, not said again


def test_a_refused_link_is_said_where_it_is_drawn():
    at = open_page("causal-mask", params={PARAM: "not-a-link"})
    warned = [a.value for a in at.warning]
    assert warned and _marker(at)["say"] == warned[0]


def test_a_step_that_fails_to_draw_says_the_pages_own_message_not_streamlits(monkeypatch):
    """The step is a fragment inside the page's (ui/script.py, rerun_alone): Streamlit's fragment would catch a
    failure first and draw its own error box, so the part says the page's message itself."""
    at = open_page("causal-mask")
    at.toggle(key="step_mode:causal-mask").set_value(True).run()
    assert not at.exception

    def broken(*args, **kwargs):
        raise RuntimeError("a drawing bug")

    monkeypatch.setattr(stepper, "step_through", broken)
    at.button(key=next(b.key for b in at.button if (b.key or "").startswith("step_next:"))).click().run()
    assert not at.exception  # no Streamlit error box
    assert [e.value for e in at.error] == [app_text("page_failed")]
