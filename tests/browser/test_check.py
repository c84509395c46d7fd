"""Check yourself in a real browser: answer every question of 3.5.1, see "Correct", then the ✓ in the sidebar."""

from __future__ import annotations

from attention import book_inputs, causal_attention_step_by_step
from tests.browser.harness import PATIENT_MS, open_page, wait_idle, wait_progress_kept, wait_text
from ui.chapter import PAGES

TITLE = next(p.title for p in PAGES if p.page_id == "causal-mask")


def by_key(page, key: str):
    """The element Streamlit marks with a widget's key (``st-key-`` + the key, other characters as "-")."""
    return page.locator(".st-key-" + "".join(c if c.isalnum() or c in "_-" else "-" for c in key))


def press_check(page, question: str, correct: str) -> None:
    by_key(page, f"check:causal-mask:{question}:check").get_by_role("button").click()
    wait_text(page, correct, where='[data-testid="stMain"]')
    wait_idle(page)


def type_answer(page, question: str, value: str) -> None:
    field = by_key(page, f"check:causal-mask:{question}").locator("input")
    field.fill(value)
    field.press("Enter")
    wait_idle(page)


def sidebar_nav(page) -> str:
    return page.locator('[data-testid="stSidebarNav"]').inner_text()


def test_answering_all_of_3_5_1_shows_correct_and_a_check_mark_in_the_navigation(page, app_server):
    trace = causal_attention_step_by_step(book_inputs())
    masked_weight = f"{float(trace['masked_weights'][1, 0]):.4f}"  # 0.5517: "journey" -> "Your"
    left = f"{float(trace['row_sums'][1]):.4f}"
    open_page(page, app_server, "causal-mask")
    assert "Check yourself: 3 questions" in page.inner_text('[data-testid="stMain"]')
    page.locator("summary", has_text="Check yourself: 3 questions").click()  # folded until opened
    by_key(page, "check:causal-mask:masked_weight").locator("input").wait_for()
    assert f"{TITLE} ✓" not in sidebar_nav(page)

    type_answer(page, "masked_weight", masked_weight)
    press_check(page, "masked_weight", f"Correct: {masked_weight}.")
    assert f"{TITLE} ✓" not in sidebar_nav(page)  # two questions still open

    by_key(page, "check:causal-mask:hidden_cells").get_by_text("above the diagonal (j > i)").click()
    wait_idle(page)
    press_check(page, "hidden_cells", "Correct: above the diagonal (j > i).")

    type_answer(page, "left_in_row", "1")  # a mistake first: the feedback says why
    press_check(page, "left_in_row", "zeroing the future took some weight away")
    type_answer(page, "left_in_row", left)
    press_check(page, "left_in_row", f"Correct: {left}.")

    page.wait_for_function("(t) => document.querySelector('[data-testid=\"stSidebarNav\"]').innerText.includes(t)",
                           arg=f"{TITLE} ✓", timeout=PATIENT_MS)
    nav = sidebar_nav(page)
    assert nav.count("✓") == 1
    assert page.locator('[data-testid="stException"]').count() == 0

    # A reload (a new server session) keeps the ✓: the browser kept which questions were answered.
    wait_progress_kept(page, "causal-mask", "left_in_row")
    page.reload()
    page.wait_for_selector("h1")
    page.wait_for_function("(t) => document.querySelector('[data-testid=\"stSidebarNav\"]').innerText.includes(t)",
                           arg=f"{TITLE} ✓", timeout=PATIENT_MS)
    assert sidebar_nav(page).count("✓") == 1
    # and a session that never answered anything here gets no ✓ from the browser's copy of another's progress
    other = page.context.browser.new_context()
    try:
        fresh = other.new_page()
        open_page(fresh, app_server, "causal-mask")
        assert f"{TITLE} ✓" not in sidebar_nav(fresh)
    finally:
        other.close()
