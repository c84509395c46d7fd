"""The book's code written once (ui/sharing/book/pieces.py): each page's file with its pieces put in is whole and clean
Python, and each of the book's classes the notebooks write agrees with the app's class in ``attention/`` that stands
for it, on the same seed.

The notebook tests compare what a notebook prints with the app at a page's settings; here the classes themselves meet
on shapes, seeds, bias and mask settings no page shows.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

import attention
from attention import seeded
from ui.sharing import book_files
from ui.sharing.book_files import book_cells, book_pages, book_pieces

ROOT = Path(__file__).resolve().parents[1]


def page_code(page: str) -> str:
    return "\n\n".join(cell.code for cell in book_cells(page))


@pytest.mark.parametrize("page", book_pages())
def test_a_pages_code_with_its_pieces_is_clean_python_that_names_nothing_undefined(page):
    """The page files name their pieces, so the linter cannot read them alone: it reads them here, put together."""
    found = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated", "--select", "E,F,W",
                            "--line-length", "120", "--stdin-filename", f"{page.replace('-', '_')}_notebook.py",
                            "-"], input=page_code(page) + "\n", capture_output=True, text=True, cwd=ROOT, check=False)
    assert found.returncode == 0, found.stdout + found.stderr


def test_every_piece_is_used_and_a_page_holds_each_of_its_classes_once():
    used = {name for path in book_files.BOOK.glob("*.py") if path != book_files.PIECES
            for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("# book: ")
            for name in line.removeprefix("# book: ").replace(" ", "").split(",")}
    needed = {need for needs, _ in book_pieces().values() for need in needs}
    assert used | needed == set(book_pieces())
    for page in book_pages():
        code = page_code(page)
        for name in book_pieces():
            assert code.count(f"class {name}(") <= 1, (page, name)
        assert code.count("def hide_future(") <= 1, page


def test_a_piece_that_does_not_exist_is_a_developers_error(tmp_path, monkeypatch):
    page = tmp_path / "causal_mask.py"
    page.write_text("# %% setup\n# book: setup, SelfAttention_v3\n# %% inputs\n# %% settings\n", encoding="utf-8")
    monkeypatch.setattr(book_files, "book_file", lambda _page: page)
    book_cells.cache_clear()
    try:
        with pytest.raises(ValueError, match="SelfAttention_v3"):
            book_cells("causal-mask")
    finally:
        book_cells.cache_clear()


# ----- the notebooks' classes against the app's --------------------------------------------------------------------
CLASSES = ("SelfAttention_v1", "SelfAttention_v2", "CausalAttention", "MultiHeadAttentionWrapper", "MultiHeadAttention")


def notebook_classes() -> dict[str, type]:
    """The book's classes as a notebook defines them, from the pieces' text."""
    names: dict = {}
    code = "\n\n".join(book_pieces()[name][1] for name in ("setup", "hide_future", *CLASSES))
    exec(compile(code, str(book_files.PIECES), "exec"), names)  # noqa: S102 - the project's own file
    return {name: names[name] for name in CLASSES}


BOOK = notebook_classes()
# (d_in, d_out, num_heads, num_tokens, batch)
SHAPES = [(3, 2, 2, 6, 2), (8, 8, 2, 10, 3), (5, 6, 3, 1, 1)]


def both(name: str, seed: int, *args, causal: bool):
    """The notebook's class and the app's, each built right after ``torch.manual_seed(seed)``."""
    with seeded(seed):
        book = BOOK[name](*args, causal=causal)
    with seeded(seed):
        app = getattr(attention, name)(*args, causal=causal)
    return book, app


def same_output(book, app, x: torch.Tensor, seed: int) -> None:
    """The same output, each run right after ``torch.manual_seed(seed)`` (dropout's draws are the generator's)."""
    with torch.no_grad(), seeded(seed):
        want = app(x)
    with torch.no_grad(), seeded(seed):
        got = book(x)
    assert got.shape == want.shape
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", [123, 789, 2024])
@pytest.mark.parametrize("causal", [False, True])
def test_the_self_attention_classes_agree(shape, seed, causal):
    d_in, d_out, _, num_tokens, _ = shape
    x = torch.randn(num_tokens, d_in, generator=torch.Generator().manual_seed(seed))
    same_output(*both("SelfAttention_v1", seed, d_in, d_out, causal=causal), x, seed)
    for bias in (False, True):
        same_output(*both("SelfAttention_v2", seed, d_in, d_out, bias, causal=causal), x, seed)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", [123, 2024])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("dropout", [0.0, 0.5])
def test_the_batched_classes_agree_in_training_and_in_eval(shape, seed, causal, dropout):
    d_in, d_out, heads, num_tokens, batch = shape
    x = torch.randn(batch, num_tokens, d_in, generator=torch.Generator().manual_seed(seed))
    context_length = num_tokens + 2  # the mask buffer is sliced to the tokens
    for bias in (False, True):
        pairs = [both("CausalAttention", seed, d_in, d_out, context_length, dropout, bias, causal=causal),
                 both("MultiHeadAttentionWrapper", seed, d_in, d_out, context_length, dropout, heads, bias,
                      causal=causal),
                 both("MultiHeadAttention", seed, d_in, d_out * heads, context_length, dropout, heads, bias,
                      causal=causal)]
        for book, app in pairs:
            for training in (True, False):
                book.train(training)
                app.train(training)
                same_output(book, app, x, seed)


def test_a_planted_difference_in_a_notebooks_class_is_caught():
    """The comparison can fail: the notebook's MultiHeadAttention without its scaling by sqrt(head_dim)."""
    book, app = both("MultiHeadAttention", 123, 3, 4, 6, 0.0, 2, causal=True)
    book.forward = lambda x: torch.softmax(book.W_query(x) @ book.W_key(x).transpose(1, 2), dim=-1) @ book.W_value(x)
    with pytest.raises(AssertionError):
        same_output(book, app, torch.rand(2, 6, 3), 123)
