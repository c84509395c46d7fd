"""The shared input matrix: tokens by embedding dimensions, and its validation.

Plain Python and pandas, no Streamlit, so every rule is unit-tested. Every
function that accepts learner input raises :class:`InputError` with a
message naming the cell or the setting at fault.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from attention.data import BOOK_INPUTS, BOOK_TOKENS
from attention.errors import ExplainedValueError

__all__ = [
    "InputError",
    "InputMatrix",
    "PRESETS",
    "book_matrix",
    "random_matrix",
    "near_duplicate_matrix",
    "from_frame",
    "MAX_TOKEN_NAME",
    "MAX_ABS_VALUE",
]

MAX_TOKEN_NAME = 40  # characters shown for a token; longer names are refused
MAX_ABS_VALUE = 1e4  # larger embeddings overflow the scores of big matrices


class InputError(ExplainedValueError):
    """A learner's input that cannot be used, with a message saying why (an English template and its fields)."""


@dataclass(frozen=True, eq=False)
class InputMatrix:
    """Token names and a (tokens, dim) float32 array (compact: 1024 x 768 is 3 MB)."""

    tokens: tuple[str, ...]
    values: np.ndarray
    origin: tuple[tuple[str, int], ...] | None = None  # how to rebuild it (e.g. a seeded preset)

    def __post_init__(self) -> None:
        values = np.array(self.values, dtype=np.float32, copy=True)
        if values.ndim != 2 or values.shape[0] != len(self.tokens):
            raise InputError("{num_names} token names for a matrix of shape {shape}.",
                             num_names=len(self.tokens), shape=values.shape)
        values.setflags(write=False)
        object.__setattr__(self, "tokens", tuple(self.tokens))
        object.__setattr__(self, "values", values)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, InputMatrix)
            and self.tokens == other.tokens
            and np.array_equal(self.values, other.values)
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def num_tokens(self) -> int:
        return len(self.tokens)

    @property
    def dim(self) -> int:
        return int(self.values.shape[1])

    def tensor(self) -> torch.Tensor:
        return torch.from_numpy(self.values.copy())

    def labels(self) -> list[str]:
        """Token names made unique for chart axes: a repeated name gets its position."""
        seen: dict[str, int] = {}
        for t in self.tokens:
            seen[t] = seen.get(t, 0) + 1
        return [f"{t} ({i + 1})" if seen[t] > 1 else t for i, t in enumerate(self.tokens)]

    def frame(self) -> pd.DataFrame:
        df = pd.DataFrame(self.values.astype(np.float64).round(6), columns=[f"d{j + 1}" for j in range(self.dim)])
        df.insert(0, "token", list(self.tokens))
        return df

    def editor_frame(self, decimal_comma: bool = False) -> pd.DataFrame:
        """The table the data editor shows: every value as text, with all the digits it holds
        and no padding zeros (0.43, 0.4419). Text cells let every typed or pasted cell reach
        the validation, which names the cell at fault; a number column would drop bad input.
        ``decimal_comma``: written as the reader's language writes numbers (0,43); either reads back."""
        df = pd.DataFrame([[format_value(v, decimal_comma) for v in row] for row in self.values],
                          columns=[f"d{j + 1}" for j in range(self.dim)], dtype=object)
        df.insert(0, "token", list(self.tokens))
        return df

    def with_dim(self, dim: int) -> InputMatrix:
        """Change the embedding width: new columns are 0, removed columns are dropped."""
        if dim < 1:
            raise InputError("the embedding width must be at least 1.")
        values = np.zeros((self.num_tokens, dim), dtype=np.float32)
        keep = min(dim, self.dim)
        values[:, :keep] = self.values[:, :keep]
        return InputMatrix(self.tokens, values)


def format_value(value: float, decimal_comma: bool = False) -> str:
    """The shortest text that reads back as the same float32 (0.43, not 0.4300000071525574)."""
    text = np.format_float_positional(np.float32(value), trim="-")
    return text.replace(".", ",") if decimal_comma else text


def book_matrix() -> InputMatrix:
    return InputMatrix(tuple(BOOK_TOKENS), np.array(BOOK_INPUTS, dtype=np.float32))


def random_matrix(num_tokens: int, dim: int, seed: int) -> InputMatrix:
    from attention.data import random_inputs

    x = random_inputs(num_tokens, dim, seed)
    tokens = tuple(f"t{i + 1}" for i in range(num_tokens))
    origin = (("preset", 1), ("n", num_tokens), ("d", dim), ("seed", seed))
    return InputMatrix(tokens, x.numpy().round(4), origin)


def near_duplicate_matrix() -> InputMatrix:
    from attention.data import near_duplicate_inputs

    x = near_duplicate_inputs()
    tokens = tuple(BOOK_TOKENS[:5]) + ("journey'",)
    return InputMatrix(tokens, x.numpy().round(4))


PRESETS: tuple[str, ...] = ("book", "random", "near_duplicate")  # their names: preset_<id> in _app.toml


def clean_token(raw: object, row: int) -> str:
    if raw is None or (isinstance(raw, float) and math.isnan(raw)):
        raise InputError("row {row}: the token name is empty; type a word such as “cat”.", row=row)
    name = unicodedata.normalize("NFC", str(raw)).strip()
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")  # no control chars
    if not name:
        raise InputError("row {row}: the token name is empty; type a word such as “cat”.", row=row)
    if len(name) > MAX_TOKEN_NAME:
        raise InputError(
            "row {row}: the token name is {length} characters long; keep it to "
            "{limit} or fewer.",
            row=row, length=len(name), limit=MAX_TOKEN_NAME,
        )
    return name


_DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+(?:[eE][+-]?\d+)?")


def _decimal_point(text: str) -> str:
    """A cell's text with its decimal comma as a point: "0,5" and a spreadsheet's "-0,43" are numbers in
    Indonesian and Vietnamese (one comma, digits after it). The Unicode minus a phone's keyboard may type counts."""
    text = text.strip().replace("\u2212", "-")
    return text.replace(",", ".") if _DECIMAL_COMMA.fullmatch(text) else text


def clean_value(raw: object, row: int, column: str) -> float:
    """``raw`` as a float; ``row`` counts from 1 and ``column`` is the column's name (d1, d2, ...)."""
    if raw is None or (isinstance(raw, str) and raw.strip() == ""):
        raise InputError("row {row}, column {column} is empty; every cell needs a number.", row=row, column=column)
    if isinstance(raw, bool):
        raise InputError("row {row}, column {column}: {value!r} is not a number.", row=row, column=column, value=raw)
    try:
        value = float(_decimal_point(raw) if isinstance(raw, str) else raw)  # "0.5", and "0,5" as written in id, vi
    except (TypeError, ValueError):
        text = str(raw)[:30]
        if "," in text and "." in text:
            raise InputError("row {row}, column {column}: “{text}” has both a decimal comma and a decimal point; "
                             "type a number such as 0.5 or 0,5, without a thousands separator.",
                             row=row, column=column, text=text) from None
        raise InputError("row {row}, column {column}: “{text}” is not a number; type one such as 0.5 or 0,5.",
                         row=row, column=column, text=text) from None
    if math.isnan(value):
        raise InputError("row {row}, column {column} is NaN (not a number); type an ordinary number.",
                         row=row, column=column)
    if math.isinf(value):
        raise InputError("row {row}, column {column} is infinite; type an ordinary number.", row=row, column=column)
    if abs(value) > MAX_ABS_VALUE:
        raise InputError(
            "row {row}, column {column} is {value:g}; keep embeddings within ±{limit:g} "
            "(bigger values overflow the attention scores).",
            row=row, column=column, value=value, limit=MAX_ABS_VALUE,
        )
    return value


def from_rows(
    tokens: Sequence[object], rows: Sequence[Sequence[object]], *, max_tokens: int, max_dim: int
) -> InputMatrix:
    """Validate raw tokens and rows (from the editor, a CSV or a link)."""
    if len(tokens) == 0:
        raise InputError("the matrix has no tokens; add at least one row.")
    if len(tokens) != len(rows):
        raise InputError("{num_names} token names for {num_rows} rows of numbers.",
                         num_names=len(tokens), num_rows=len(rows))
    if len(tokens) > max_tokens:
        raise InputError("{num_tokens} tokens is more than the limit of {max_tokens}.",
                         num_tokens=len(tokens), max_tokens=max_tokens)
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise InputError("rows have different lengths {lengths}; give every token the same width.",
                         lengths=sorted(widths))
    dim = widths.pop()
    if dim == 0:
        raise InputError("the matrix has no embedding columns; add at least one dimension.")
    if dim > max_dim:
        raise InputError("embedding width {dim} is more than the limit of {max_dim}.", dim=dim, max_dim=max_dim)
    clean_tokens = tuple(clean_token(t, i + 1) for i, t in enumerate(tokens))
    values = [[clean_value(v, i + 1, f"d{j + 1}") for j, v in enumerate(row)] for i, row in enumerate(rows)]
    return InputMatrix(clean_tokens, np.array(values, dtype=np.float32))


def from_frame(df: pd.DataFrame, *, max_tokens: int, max_dim: int) -> InputMatrix:
    """Validate the data editor's frame (a ``token`` column, then numbers)."""
    if "token" not in df.columns:
        raise InputError("the table needs a “token” column with the token names.")
    value_cols = [c for c in df.columns if c != "token"]
    rows = df[value_cols].astype(object).values.tolist() if value_cols else [[] for _ in range(len(df))]
    return from_rows(df["token"].tolist(), rows, max_tokens=max_tokens, max_dim=max_dim)


def from_csv_text(text: str, *, max_tokens: int, max_dim: int) -> InputMatrix:
    """Parse an uploaded CSV: a header row, a ``token`` column, then one column per dimension."""
    import io

    try:
        df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except Exception as exc:  # pandas raises several parser error types
        raise InputError("the file is not a readable CSV table ({error_kind}).",
                         error_kind=type(exc).__name__) from None
    if "token" not in df.columns:
        if len(df.columns) and str(df.columns[0]).strip().lower() in {"", "unnamed: 0", "tokens"}:
            df = df.rename(columns={df.columns[0]: "token"})
        else:
            raise InputError("the CSV needs a header row whose first column is “token”.")
    return from_frame(df, max_tokens=max_tokens, max_dim=max_dim)
