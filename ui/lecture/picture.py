"""What a lecture's projection drew at a step, as data a room can carry: a :class:`Picture` (no Streamlit here).

A following student's light page (no Streamlit session of its own) shows the step exactly as the projection drew it,
in the student's language. So the projection publishes the numbers it drew, never its words: the page, the step's
full name ("v2.context", which says which trace of the page it came from), where in the walkthrough it is, the step's
axes, shape and values, the cells the mask hid and dropout zeroed, the labels of the rows and keys, and the lines of
code that computed it. The server words it per language (ui/follow/render.py).

A picture is read back from a room's document, which a client holding the room's secret writes: like a link, it is
checked whole on the way in (:class:`PictureDocument`, its types, sizes and numbers, then how its parts fit), and
refused with a :class:`PictureError` otherwise. Values are kept as the float32 they were: each is written as the
shortest decimal that reads back as the same float32 (``0.3`` rather than ``0.30000001192092896``), so the tensor
printed from a picture is the tensor the projection printed, and a picture of the book's matrix stays a few hundred
characters.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import numpy as np
import torch
from msgspec import Meta

from attention import Trace
from attention.errors import ExplainedValueError

from ..chapter import PAGES
from .documents import Document, Finite, Mismatch, convert

__all__ = ["MAX_CHARS", "MAX_VALUES", "Picture", "PictureDocument", "PictureError", "picture_of"]

PAGE_IDS = frozenset(p.page_id for p in PAGES)  # a picture names one of this app's pages, or none is shown
MAX_VALUES = 4_096  # a step's values: the book's steps have at most a few hundred
MAX_CHARS = 20_000  # a picture's JSON: a third of a room's document (ui/lecture/rooms.py MAX_DOCUMENT)
MAX_DIMS = 6
MAX_NAME = 80  # a page id, a step's name, an axis' name
MAX_LABEL = 60  # a token's label (ui/inputs/matrix.py keeps them shorter)
MAX_LABELS = 1_024
MAX_CODE = 4_000  # the lines that computed a step
DTYPES = {"float32": torch.float32, "float64": torch.float64, "int64": torch.int64, "int32": torch.int32,
          "bool": torch.bool}
_NOT_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}  # masked scores are -inf: JSON has no word for it
Name = Annotated[str, Meta(min_length=1, max_length=MAX_NAME)]
Labels = Annotated[tuple[Annotated[str, Meta(max_length=MAX_LABEL)], ...], Meta(max_length=MAX_LABELS)]
Cells = Annotated[tuple[Literal[0, 1], ...], Meta(max_length=MAX_VALUES)] | None
Code = Annotated[str, Meta(max_length=MAX_CODE)] | None
Whole = Annotated[int, Meta(ge=-(2**63 - 1), le=2**63 - 1)]  # an int64 tensor's values, as torch reads them back


class PictureError(ExplainedValueError):
    """A projected step that this app cannot use, and why (a damaged or hostile room document)."""


@dataclass(frozen=True)
class Picture:
    page: str  # the page's id ("3.4.2")
    name: str  # the step's full name in the page's content file ("v2.context")
    index: int  # the walkthrough step, from 0
    total: int  # the walkthrough's length
    dims: tuple[str, ...]  # the step's axes ("token", "d_out")
    shape: tuple[int, ...]
    dtype: str  # one of DTYPES
    values: tuple[float, ...]  # the tensor's values, row-major
    hidden: tuple[bool, ...] | None  # the cells the mask hid (Trace.hidden_in), shaped like the values
    dropped: tuple[bool, ...] | None  # the cells dropout zeroed (Trace.dropped_in)
    rows: tuple[str, ...]  # the queries' (and tokens') labels
    keys: tuple[str, ...]  # the keys' labels: the same tokens unless cross-attention
    qualname: str | None = None  # the function whose lines computed the step
    code: str | None = None  # those lines

    @property
    def step(self) -> str:
        """The step's name in its trace ("context" of "v2.context")."""
        return self.name.rpartition(".")[2]

    def tensor(self) -> torch.Tensor:
        """The step's tensor, bit for bit the one the projection printed."""
        return torch.tensor(self.values, dtype=DTYPES[self.dtype]).reshape(self.shape)

    def array(self, cells: tuple[bool, ...] | None) -> np.ndarray | None:
        """The hidden or the dropped cells, shaped like the step (what the chart reads)."""
        return None if cells is None else np.array(cells, dtype=bool).reshape(self.shape)

    def to_data(self) -> dict[str, Any]:
        return {"page": self.page, "name": self.name, "index": self.index, "total": self.total,
                "dims": list(self.dims), "shape": list(self.shape), "dtype": self.dtype,
                "values": [_written(v) for v in self.values],
                "hidden": None if self.hidden is None else [int(c) for c in self.hidden],
                "dropped": None if self.dropped is None else [int(c) for c in self.dropped],
                "rows": list(self.rows), "keys": list(self.keys), "qualname": self.qualname, "code": self.code}

    def size(self) -> int:
        """Characters of its JSON (what the cap counts)."""
        return len(json.dumps(self.to_data(), separators=(",", ":"), ensure_ascii=False, allow_nan=False))

    @classmethod
    def from_data(cls, data: Any) -> Picture:
        """The picture in a room's document, every field checked; PictureError for anything else."""
        return cls.of_document(convert(data, PictureDocument, _refusal))

    @classmethod
    def of_document(cls, found: PictureDocument) -> Picture:
        """A picture of its type (a deck's, decoded with it), once its parts fit one another."""
        picture = cls(found.page, found.name, found.index, found.total, found.dims, found.shape, found.dtype,
                      tuple(_NOT_FINITE[v] if isinstance(v, str) else float(v) for v in found.values),
                      _bools(found.hidden), _bools(found.dropped), found.rows, found.keys, found.qualname, found.code)
        picture._fits()
        return picture

    def check(self) -> None:
        """Its fields are what a projection writes, within the caps (a picture built here is checked too)."""
        convert(self.to_data(), PictureDocument, _refusal)
        self._fits()

    def _fits(self) -> None:
        """What its type cannot say: a page of this app, a step within the walkthrough, values that fill the shape,
        masks of the values' size, and the whole within a room's share."""
        if self.page not in PAGE_IDS:
            raise PictureError("the projected step's names are damaged.")
        if self.index >= self.total:
            raise PictureError("the projected step's place in the walkthrough is not a step number.")
        if len(self.shape) != len(self.dims) or math.prod(self.shape) != len(self.values):
            raise PictureError("the projected step's values do not fill its shape (at most {limit}).",
                               limit=MAX_VALUES)
        if any(c is not None and len(c) != len(self.values) for c in (self.hidden, self.dropped)):
            raise PictureError("the projected step's masked cells do not match its values.")
        if self.size() > MAX_CHARS:
            raise PictureError("the projected step is larger than {limit} characters.", limit=MAX_CHARS)


class PictureDocument(Document):
    """A picture as a deck carries it (:meth:`Picture.to_data`): an infinity or NaN as its word, a cell as 0 or 1."""

    page: Name
    name: Name
    index: Annotated[int, Meta(ge=0, lt=10_000)]
    total: Annotated[int, Meta(ge=1, le=10_000)]
    dims: Annotated[tuple[Name, ...], Meta(max_length=MAX_DIMS)]
    shape: Annotated[tuple[Annotated[int, Meta(ge=1, le=MAX_VALUES)], ...], Meta(max_length=MAX_DIMS)]
    dtype: Literal["float32", "float64", "int64", "int32", "bool"]  # DTYPES
    values: Annotated[tuple[Whole | Finite | Literal["inf", "-inf", "nan"], ...], Meta(max_length=MAX_VALUES)]
    hidden: Cells
    dropped: Cells
    rows: Labels
    keys: Labels
    qualname: Code
    code: Code


def _refusal(mismatch: Mismatch) -> PictureError:
    """Why a picture is refused, said of the field that failed."""
    where = mismatch.field
    if where in ("page", "name", "dims"):
        return PictureError("the projected step's names are damaged.")
    if where in ("index", "total"):
        return PictureError("the projected step's place in the walkthrough is not a step number.")
    if where in ("shape", "dtype", "values"):
        return PictureError("the projected step's values do not fill its shape (at most {limit}).", limit=MAX_VALUES)
    if where in ("hidden", "dropped"):
        return PictureError("the projected step's masked cells do not match its values.")
    if where in ("rows", "keys"):
        return PictureError("the projected step's labels are too long.")
    if where in ("qualname", "code"):
        return PictureError("the projected step's code is too long.")
    return PictureError("the projected step is damaged.")


def picture_of(page: str, name: str, index: int, total: int, trace: Trace, step: str, rows: Sequence[str],
               keys: Sequence[str] | None) -> Picture | None:
    """The picture of step ``step`` of ``trace`` as drawn with these labels; None where it cannot travel (a step too
    large for a room, or of a kind of tensor a picture does not carry): the class then sees the step's line only."""
    recorded = trace.step(step)
    tensor = recorded.tensor.detach().cpu()
    dtype = next((n for n, d in DTYPES.items() if d == tensor.dtype), None)
    if dtype is None or not 0 < tensor.numel() <= MAX_VALUES:
        return None
    # Here, not at the top: ui/draw's package draws with Streamlit, and the deck (which carries pictures) is read by
    # the lecture's state machine, which imports no Streamlit (tests/test_protocol.py).
    from ..draw.source import excerpt

    values = tensor.contiguous().numpy().reshape(-1)
    code = excerpt(recorded.where, step)
    picture = Picture(page, name, index, total, tuple(recorded.dims), tuple(tensor.shape), dtype,
                      _float_values(values, dtype), _flat(trace.hidden_in(step)), _flat(trace.dropped_in(step)),
                      tuple(rows), tuple(rows if keys is None else keys),
                      None if code is None else code.qualname, None if code is None else code.snippet())
    try:
        picture.check()
    except PictureError:
        return None
    return picture


def _float_values(values: np.ndarray, dtype: str) -> tuple[float, ...]:
    """Python floats that read back as these values: for float32, the shortest decimal of each (numpy's repr)."""
    if dtype == "float32":
        return tuple(float(repr(float(v)) if not np.isfinite(v) else np.format_float_positional(v, unique=True))
                     for v in values)
    return tuple(float(v) for v in values.tolist())


def _flat(cells: torch.Tensor | None) -> tuple[bool, ...] | None:
    return None if cells is None else tuple(bool(c) for c in cells.reshape(-1).tolist())


def _written(value: float) -> float | str:
    if math.isfinite(value):
        return value
    return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"


def _bools(cells: tuple[int, ...] | None) -> tuple[bool, ...] | None:
    return None if cells is None else tuple(bool(c) for c in cells)
