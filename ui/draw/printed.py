"""A tensor as PyTorch prints it, the text the app shows under a step (plain: no Streamlit).

Apart from ui/draw/tensors.py so that the server's follower view (ui/follow/render.py) prints a projected step with the
very same function, outside any Streamlit run.
"""

from __future__ import annotations

import functools

import torch

__all__ = ["tensor_text"]


def tensor_text(t: torch.Tensor) -> str:
    """The tensor as PyTorch prints it (4 decimals), as in the book.

    PyTorch's printing was a fifth of a page's run (py-spy on the server, a control change on 3.3.1), and most of a
    page's tensors are the same from one run to the next: the text is kept by what it depends on (the dtype, the
    shape, the values' bytes and PyTorch's print options), so an unchanged tensor is not formatted again."""
    t = t.detach().cpu()
    if t.dtype not in _CACHED_DTYPES or not 0 < t.numel() <= _CACHED_NUMEL or type(t) is not torch.Tensor \
            or t.layout != torch.strided:
        return repr(t)
    opts = torch._tensor_str.PRINT_OPTS
    return _printed(t.dtype, tuple(t.shape), t.contiguous().numpy().tobytes(),
                    (opts.precision, opts.threshold, opts.edgeitems, opts.linewidth, opts.sci_mode))


_CACHED_DTYPES = frozenset({torch.float32, torch.float64, torch.int64, torch.int32, torch.bool})
_CACHED_NUMEL = 4096  # larger tensors (a GPT-2-size trace's) are printed summarised, and rarely twice alike


@functools.lru_cache(maxsize=2048)
def _printed(dtype: torch.dtype, shape: tuple[int, ...], data: bytes, options: tuple) -> str:
    """The text of the tensor these bytes hold (``options``: the print options it is printed under, part of the
    key only: PyTorch reads them itself)."""
    return repr(torch.frombuffer(bytearray(data), dtype=dtype).reshape(shape))
