"""Bad input, shareable links and CSV import: every case gets a clear message, never an error."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from tests.apptest import code_text
from ui.chapter import PAGES
from ui.inputs.matrix import (
    MAX_TOKEN_NAME,
    InputError,
    InputMatrix,
    book_matrix,
    from_csv_text,
    from_frame,
    from_rows,
    random_matrix,
)
from ui.page.state import fits
from ui.sharing.codec import LinkError, decode_state, encode_state

APP = str(Path(__file__).resolve().parents[1] / "app.py")
PAGE_IDS = {p.page_id for p in PAGES}
LIMITS = {"max_tokens": 64, "max_dim": 32}


def frame_with(row: int, col: str, value) -> pd.DataFrame:
    df = book_matrix().frame().astype(object)
    df.at[row, col] = value
    return df


# ----- the matrix: every bad cell is named -------------------------------------------

@pytest.mark.parametrize(
    "value,message",
    [
        (None, r"row 2, column d1 is empty"),
        ("", r"row 2, column d1 is empty"),
        ("abc", r"row 2, column d1: “abc” is not a number"),
        (float("nan"), r"row 2, column d1 is NaN"),
        ("nan", r"row 2, column d1 is NaN"),
        (float("inf"), r"row 2, column d1 is infinite"),
        (float("-inf"), r"row 2, column d1 is infinite"),
        ("-inf", r"row 2, column d1 is infinite"),
        (1e30, r"row 2, column d1 is 1e\+30; keep embeddings within"),
        (True, r"not a number"),
    ],
)
def test_bad_cells_are_named(value, message):
    with pytest.raises(InputError, match=message):
        from_frame(frame_with(1, "d1", value), **LIMITS)


def test_numeric_strings_are_accepted():
    m = from_frame(frame_with(1, "d1", " 0.25 "), **LIMITS)
    assert m.values[1, 0] == np.float32(0.25)


def test_zero_tokens_and_zero_dims_are_refused():
    with pytest.raises(InputError, match="no tokens"):
        from_frame(book_matrix().frame().iloc[0:0], **LIMITS)
    with pytest.raises(InputError, match="no embedding columns"):
        from_frame(book_matrix().frame()[["token"]], **LIMITS)


def test_one_token_is_fine():
    m = from_frame(book_matrix().frame().iloc[0:1], **LIMITS)
    assert m.num_tokens == 1 and m.tokens == ("Your",)


def test_token_names_long_unicode_duplicate_empty():
    with pytest.raises(InputError, match=f"keep it to {MAX_TOKEN_NAME}"):
        from_frame(frame_with(0, "token", "x" * (MAX_TOKEN_NAME + 1)), **LIMITS)
    with pytest.raises(InputError, match="row 1: the token name is empty"):
        from_frame(frame_with(0, "token", "   "), **LIMITS)
    m = from_frame(frame_with(0, "token", "Ünïcødé 🚀 日本"), **LIMITS)
    assert m.tokens[0] == "Ünïcødé 🚀 日本"
    dup = from_frame(frame_with(0, "token", "journey"), **LIMITS)
    assert dup.tokens[:2] == ("journey", "journey")
    assert dup.labels()[:2] == ["journey (1)", "journey (2)"]  # unique chart labels
    ctrl = from_frame(frame_with(0, "token", "a\x00b\u202e"), **LIMITS)
    assert ctrl.tokens[0] == "ab"  # control and bidi-override characters are dropped


def test_size_limits():
    big = random_matrix(65, 3, 0).frame()
    with pytest.raises(InputError, match="more than the limit of 64"):
        from_frame(big, **LIMITS)
    wide = random_matrix(2, 33, 0).frame()
    with pytest.raises(InputError, match="width 33 is more than the limit of 32"):
        from_frame(wide, **LIMITS)


def test_with_dim_pads_and_truncates():
    m = book_matrix()
    assert m.with_dim(5).values[:, 3:].sum() == 0 and m.with_dim(5).dim == 5
    assert np.array_equal(m.with_dim(2).values, m.values[:, :2])


# ----- CSV upload -----------------------------------------------------------------------

def test_csv_round_trip():
    m = book_matrix()
    assert from_csv_text(m.frame().to_csv(index=False), **LIMITS) == m


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "not a readable CSV"),
        ("a,b\n1,2\n", "first column is “token”"),
        ("token,d1\nx,1\ny,oops\n", "row 2, column d1: “oops” is not a number"),
        ("token,d1\nx,1\ny,\n", "row 2, column d1 is empty"),
        ("token\nx\n", "no embedding columns"),
        ("token,d1\n", "no tokens"),
    ],
)
def test_bad_csv_is_explained(text, message):
    with pytest.raises(InputError, match=message):
        from_csv_text(text, **LIMITS)


# ----- links: encode/decode properties --------------------------------------------------

finite = st.floats(min_value=-1e4, max_value=1e4, allow_nan=False, allow_infinity=False, width=32)
names = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")), min_size=1, max_size=12
).filter(lambda s: s.strip() and s == s.strip())


@st.composite
def matrices(draw):
    n = draw(st.integers(1, 8))
    d = draw(st.integers(1, 6))
    tokens = draw(st.lists(names, min_size=n, max_size=n))
    values = draw(st.lists(st.lists(finite, min_size=d, max_size=d), min_size=n, max_size=n))
    # Matrices in the app have always been through validation (NFC names, finite floats).
    return from_rows(tokens, values, **LIMITS)


control_values = st.one_of(st.booleans(), st.integers(-1000, 1000), finite, st.text(max_size=20))
controls = st.dictionaries(
    st.sampled_from(sorted(PAGE_IDS)),
    st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True), control_values, max_size=5),
    max_size=4,
)


@settings(max_examples=max(settings().max_examples // 2, 50))  # a page run per example: half the profile's
@given(matrices(), controls)
def test_links_round_trip(matrix, ctrl):
    text, note = encode_state(matrix, ctrl)
    assert note == ""
    state = decode_state(text, pages=PAGE_IDS, max_chars=100_000, **LIMITS)
    assert state.matrix.tokens == matrix.tokens
    np.testing.assert_allclose(state.matrix.values, matrix.values, rtol=1e-5, atol=1e-6)
    assert state.controls == {p: {k: (v if not isinstance(v, float) else pytest.approx(v)) for k, v in c.items()}
                              for p, c in ctrl.items()}


@given(st.text(max_size=300))
def test_arbitrary_text_never_escapes_as_anything_but_link_error(text):
    try:
        decode_state(text, pages=PAGE_IDS, **LIMITS)
    except LinkError:
        pass


def pack(obj) -> str:
    raw = json.dumps(obj).encode() if not isinstance(obj, bytes) else obj
    return base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=4), c, max_size=4),
                    max_leaves=30))
def test_arbitrary_json_payloads_are_refused_cleanly(payload):
    for candidate in (payload, {"v": 1, "m": payload}, {"v": 1, "c": payload}, {"v": 1, "c": {"one-query": payload}}):
        try:
            state = decode_state(pack(candidate), pages=PAGE_IDS, **LIMITS)
        except LinkError:
            continue
        # whatever is accepted is well-formed
        assert state.matrix is None or isinstance(state.matrix, InputMatrix)
        assert all(p in PAGE_IDS for p in state.controls)


@pytest.mark.parametrize(
    "payload,message",
    [
        ({"v": 2}, "another version"),
        ({"v": 1, "x": 1}, "unexpected fields"),
        ({"v": 1, "c": {"no-such-page": {}}}, "page this app does not have"),
        ({"v": 1, "c": {"one-query": {"Bad Name": 1}}}, "unknown control"),
        ({"v": 1, "c": {"one-query": {"seed": 2**40}}}, "out of range"),
        ({"v": 1, "c": {"one-query": {"seed": [1, 2]}}}, "unexpected type"),
        ({"v": 1, "m": {"t": ["a"], "x": [["NaN"]]}}, "numbers only"),
        ({"v": 1, "m": {"t": ["a", "b"], "x": [[1.0]]}}, "2 token names for 1 rows"),
        ({"v": 1, "m": {"t": ["a"] * 65, "x": [[1.0]] * 65}}, "exceeds the limits"),
        ({"v": 1, "m": {"t": ["a"], "x": [[1e30]]}}, "keep embeddings within"),
        ({"v": 1, "m": {"preset": 1, "n": 10**6, "d": 3, "seed": 0}}, "the limits are"),
        ({"v": 1, "m": {"t": [], "x": []}}, "no tokens"),
    ],
)
def test_malicious_links_get_a_message(payload, message):
    with pytest.raises(LinkError, match=message):
        decode_state(pack(payload), pages=PAGE_IDS, **LIMITS)


def test_link_size_and_zip_bomb_limits():
    with pytest.raises(LinkError, match="limit is 100"):
        decode_state("A" * 101, pages=PAGE_IDS, max_chars=100, **LIMITS)
    bomb = base64.urlsafe_b64encode(zlib.compress(b'{"v":1,"c":{}' + b" " * 5_000_000 + b"}", 9)).decode()
    with pytest.raises(LinkError, match="more data than allowed"):
        decode_state(bomb, pages=PAGE_IDS, max_chars=100_000, **LIMITS)
    with pytest.raises(LinkError, match="do not belong"):
        decode_state("<script>alert(1)</script>", pages=PAGE_IDS, **LIMITS)
    with pytest.raises(LinkError, match="NaN"):
        decode_state(pack(b'{"v":1,"m":{"t":["a"],"x":[[NaN]]}}'), pages=PAGE_IDS, **LIMITS)


def test_large_random_matrix_travels_as_its_recipe():
    m = random_matrix(1024, 768, 7)
    text, note = encode_state(m, {})
    assert len(text) < 200 and note == ""
    back = decode_state(text, pages=PAGE_IDS, max_tokens=1024, max_dim=768)
    assert back.matrix == m


def test_large_edited_matrix_is_left_out_with_a_note():
    m = InputMatrix(tuple(f"t{i}" for i in range(100)), np.ones((100, 30), dtype=np.float32))
    text, note = encode_state(m, {})
    assert "too large for a link" in note
    assert decode_state(text, pages=PAGE_IDS, **LIMITS).matrix is None


@pytest.mark.parametrize(
    "value,default,kwargs,ok",
    [
        (5, 2, {"min_value": 1, "max_value": 64}, True),
        (10**9, 2, {"min_value": 1, "max_value": 64}, False),
        (0, 2, {"min_value": 1}, False),
        (2.5, 2, {"min_value": 1}, False),
        ("2", 2, {}, False),
        (True, 2, {}, False),
        (1, True, {}, False),
        (False, True, {}, True),
        ("softmax", "sum", {"options": ["sum", "softmax"]}, True),
        ("evil", "sum", {"options": ["sum", "softmax"]}, False),
        ("x" * 3000, "text", {"max_chars": 2000}, False),
    ],
)
def test_stored_or_linked_control_values_are_checked(value, default, kwargs, ok):
    assert fits(value, default, kwargs) is ok


# ----- through the app ------------------------------------------------------------------

def run_with_link(page_file: str | None, param: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["s"] = param
    at.run()
    if page_file:
        at.switch_page(page_file)
        at.run()
    return at


@pytest.mark.parametrize("param", ["garbage", "A" * 20_000, pack({"v": 1, "c": {"one-query": {"query": 999}}}),
                                   pack({"v": 1, "c": {"weight-splits": {"num_heads": 7, "d_out": 10**6}}}),
                                   pack({"v": 1, "m": {"t": ["a"], "x": [[float("inf")]]}})])
def test_bad_links_show_a_message_and_defaults(param):
    for page in ("pages/331_one-query.py", "pages/362_weight-splits.py"):
        at = run_with_link(page, param)
        assert not at.exception, [e.value for e in at.exception]
        assert at.session_state["matrix"] == book_matrix() or "inf" not in param
        text = code_text(at)
        assert "tensor(" in text  # the page still computes and shows its results


def test_the_shared_link_is_said_opened_on_every_run_for_a_while_then_not_after_the_next_change(monkeypatch):
    # A second run right after the first (the browser sending back its saved progress) took the sentence away
    # before it was seen, when it was a one-shot message.
    from ui.sharing import link as link_module

    link = pack({"v": 1, "c": {"causal-mask": {"seed": 42}}})
    at = run_with_link("pages/351_causal-mask.py", link)  # AppTest lands on the home page, then switches
    said = [s.value for s in at.success if "shared link" in s.value]
    assert said
    at.run()
    assert [s.value for s in at.success if "shared link" in s.value] == said
    monkeypatch.setattr(link_module, "OPENED_HOLD_S", 0.0)  # the learner read it; their next change
    at.number_input(key="w:causal-mask:seed").set_value(7).run()
    at.run()
    assert not [s.value for s in at.success if "shared link" in s.value]


def test_a_shared_link_restores_matrix_and_controls():
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/351_causal-mask.py")
    at.run()
    at.session_state["matrix"] = random_matrix(5, 4, 3)
    at.number_input(key="w:causal-mask:seed").set_value(42).run()
    link = at.query_params["s"]
    link = link[0] if isinstance(link, list) else link
    shown = code_text(at)

    fresh = run_with_link(None, link)
    assert any("shared link" in s.value for s in fresh.success)  # said on the landing page
    fresh.switch_page("pages/351_causal-mask.py")
    fresh.run()
    assert not fresh.exception
    assert fresh.session_state["matrix"] == random_matrix(5, 4, 3)
    assert fresh.number_input(key="w:causal-mask:seed").value == 42
    assert code_text(fresh) == shown


def test_invalid_config_keeps_last_good_state_with_message():
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/353_causal-class.py")
    at.run()
    good = code_text(at)
    at.number_input(key="w:causal-class:context_length").set_value(3).run()  # fewer than 6 tokens
    assert not at.exception
    assert any("context_length" in e.value for e in at.error)
    assert any("last valid" in i.value for i in at.info)
    assert code_text(at) == good


def test_caps_are_settings_shown_in_the_ui_and_enforced(monkeypatch):
    monkeypatch.setenv("ATTENTION_HOSTED", "1")
    monkeypatch.setenv("ATTENTION_MAX_TOKENS", "10")
    too_big = random_matrix(20, 3, 0)
    at = run_with_link(None, encode_state(too_big, {})[0])
    assert not at.exception
    assert any("limits are 10" in w.value for w in at.warning)
    assert at.session_state["matrix"] == book_matrix()
    assert any("Hosted limits: 10 tokens" in c.value for c in at.sidebar.caption)
    at.switch_page("pages/361_stacking-heads.py")
    at.run()
    assert at.number_input(key="w:stacking-heads:num_heads").max == 12
    assert at.number_input(key="w:stacking-heads:batch").max == 4


def test_a_refused_edit_counts_only_the_cells_just_asked_for():
    # m12: "none of the 2 changed cells" when one of the two was a 9999 the matrix had already taken
    from ui.inputs import state as matrix_state  # outside a run, Streamlit's session state is a plain one

    values = np.array(book_matrix().values)
    values[0, 0] = 9999
    matrix_state.set_matrix(InputMatrix(book_matrix().tokens, values))
    try:
        held = {"0": {"d1": "9999"}}  # the editor's earlier edit, which the matrix holds
        assert matrix_state._cells_changed_now({"edited_rows": {**held, "1": {"d2": "abc"}}}) == 1
        assert matrix_state._cells_changed_now({"edited_rows": {**held, "1": {"d2": "abc"}, "2": {"d3": "x"}}}) == 2
        assert matrix_state._cells_changed_now({"edited_rows": {"0": {"d1": "9999,0"}}}) == 0  # the same number
    finally:
        matrix_state.set_matrix(book_matrix())


def test_a_links_whole_number_for_a_rate_is_read_as_the_rate():
    """A link may carry 0 where the rate is 0.0 (a hand-written link, or another tool's JSON): the page shows
    the rate 0.0, with no error, as its own widget would have sent it."""
    at = run_with_link(next(p.file for p in PAGES if p.page_id == "dropout"),
                       pack({"v": 1, "c": {"dropout": {"dropout": 0}}}))
    assert not at.exception and not at.error
    [rate] = [s for s in at.select_slider if s.key.endswith(":dropout")]
    assert rate.value == 0.0 and isinstance(rate.value, float)
