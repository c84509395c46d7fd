"""Test helpers for the exported notebooks: run them with nbclient, read what they print, and the app's values.

``ORACLE`` is the app's side: for a page and its settings, the traces the page draws, from the ``attention``
package, as the page script calls it. A notebook's tagged cell (``-> step``) must print those steps' values.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable, Mapping
from typing import Any

import nbformat
import torch
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from attention import (
    NORMALISATIONS,
    AttentionConfig,
    additive_attention,
    causal_attention_step_by_step,
    dropout_demo,
    rnn_bottleneck,
    self_attention_step_by_step,
    simple_attention_for_query,
    simple_self_attention,
    text_to_attention,
)
from attention.explore import (
    RunOptions,
    causal_class_demo,
    efficient_variants,
    self_attention_classes,
    stacking_heads,
    weight_splits,
)
from attention.trace import Trace, traces_in
from ui.inputs.matrix import InputMatrix

# A kernel writes its connection file and IPython's profile under the home directory: on a machine whose home is not
# writable (a CI runner's), somewhere that is.
_SCRATCH = tempfile.mkdtemp(prefix="attention-notebooks-")
os.environ.setdefault("JUPYTER_RUNTIME_DIR", os.path.join(_SCRATCH, "runtime"))
os.environ.setdefault("IPYTHONDIR", os.path.join(_SCRATCH, "ipython"))

__all__ = ["ORACLE", "app_traces", "execute", "execute_all", "printed", "printed_tensors", "random_matrix",
           "random_state", "resolved_settings", "tolerance"]


def execute(nb: Any, timeout: int = 120) -> Any:
    """Run every cell in a fresh kernel (ipykernel, no network); returns the notebook with its outputs."""
    NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=False).execute()
    return nb


def execute_all(notebooks: list[Any]) -> list[Any]:
    """Several notebooks, one after the other in one kernel, each from an empty namespace (``%reset -f`` first):
    one kernel's start and one import of torch for them all, and one process beside the browser tests that
    make test runs at the same time, not several (a class's timings there are measured)."""
    km = KernelManager(kernel_name="python3")
    km.start_kernel()
    try:
        for nb in notebooks:
            nb.cells.insert(0, nbformat.v4.new_code_cell("%reset -f"))
            try:
                NotebookClient(nb, km=km, timeout=120, kernel_name="python3", allow_errors=False).execute()
            finally:
                nb.cells.pop(0)
    finally:
        km.shutdown_kernel(now=True)
    return notebooks


def printed(cell: Any) -> str:
    """A code cell's printed text."""
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


def tensor_texts(text: str) -> list[str]:
    """Each ``tensor(...)`` in printed text, with its parentheses matched."""
    found, start = [], 0
    while (at := text.find("tensor(", start)) >= 0:
        depth, k = 0, at + len("tensor")
        for k in range(at + len("tensor"), len(text)):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            if depth == 0:
                break
        found.append(text[at:k + 1])
        start = k + 1
    return found


def printed_tensors(text: str) -> list[torch.Tensor]:
    """The tensors PyTorch printed, read back (4 decimals, or 4 significant digits in scientific form)."""
    out = []
    for t in tensor_texts(text):
        body = t[len("tensor("):-1]
        body = re.split(r",\s*(?:grad_fn|dtype|requires_grad)=", body)[0]
        if "..." in body:
            raise AssertionError(f"a summarised tensor cannot be compared: {t[:80]}")
        body = re.sub(r"-inf\b", "-Infinity", re.sub(r"(?<![-\w])inf\b", "Infinity", body))
        body = re.sub(r"\bnan\b", "NaN", body).replace("True", "1").replace("False", "0")
        body = re.sub(r"(?<=\d)\.(?=[,\]\se])", ".0", body)  # 1. -> 1.0
        body = re.sub(r"(?<=\d)\.$", ".0", body)
        out.append(torch.tensor(json.loads(body), dtype=torch.float64))
    return out


def tolerance(text: str) -> float:
    """What printing loses: 5e-5 at 4 decimals, more for a large number PyTorch printed in scientific form."""
    exponents = [int(e) for e in re.findall(r"e([+-]\d+)", text)]
    return 1e-4 + (0.5 * 10.0 ** (max(exponents) - 4) if exponents else 0.0)


def _config(x: torch.Tensor, p: Mapping[str, Any], d_out: int | None = None, **over: Any) -> AttentionConfig:
    return AttentionConfig(d_in=x.shape[1], d_out=p["d_out"] if d_out is None else d_out,
                           context_length=over.get("context_length", x.shape[0]), dropout=p.get("dropout", 0.0),
                           num_heads=p.get("num_heads", 1), qkv_bias=p["qkv_bias"], causal=p["causal"])


def _run(p: Mapping[str, Any]) -> RunOptions:
    return RunOptions(batch_size=p["batch"], training=p.get("training", False), seed=p["seed"])


def _dropout(x: torch.Tensor, p: Mapping[str, Any]) -> dict[str, Trace]:
    weights = causal_attention_step_by_step(x, seed=789, causal=p["causal"])
    source = weights["masked_weights"] if p["causal"] else weights["weights"]
    demo = dropout_demo(source, p["dropout"], seed=p["seed"], training=p["training"],
                        mask=weights.mask if p["causal"] else None)
    return {"": demo.trace}


def _later(p: Mapping[str, Any]) -> dict[str, Any]:
    return dict(causal=p["causal"], dropout=p["dropout"], training=p["training"])


ORACLE: dict[str, Callable[[torch.Tensor, Mapping[str, Any]], Any]] = {
    "long-sequences": lambda x, p: {"": rnn_bottleneck(x, hidden=p["hidden"], seed=p["seed"],
                                                       recurrent_scale=p["scale"]),
                                    "attention": simple_self_attention(x)},
    "dependencies": lambda x, p: additive_attention(x, hidden=p["hidden"], seed=p["seed"]),
    "one-query": lambda x, p: simple_attention_for_query(x, p["query"], normalisation=p["normalisation"],
                                                         seed=p["seed"], **_later(p)),
    "all-queries": lambda x, p: simple_self_attention(x, normalisation=p["normalisation"], seed=p["seed"],
                                                      **_later(p)),
    "trainable-steps": lambda x, p: self_attention_step_by_step(x, d_out=p["d_out"], seed=p["seed"],
                                                                query_index=p["query"], dropout_seed=p["seed"],
                                                                **_later(p)),
    "self-attention-classes": lambda x, p: self_attention_classes(x, d_out=p["d_out"], seed_v1=p["seed_v1"],
                                                                  seed_v2=p["seed_v2"], qkv_bias=p["qkv_bias"],
                                                                  causal=p["causal"]),
    "causal-mask": lambda x, p: causal_attention_step_by_step(x, d_out=p["d_out"], seed=p["seed"],
                                                              qkv_bias=p["qkv_bias"], causal=p["causal"]),
    "dropout": _dropout,
    "causal-class": lambda x, p: causal_class_demo(x, _config(x, p, context_length=p["context_length"]), _run(p)),
    "stacking-heads": lambda x, p: stacking_heads(x, _config(x, p, d_out=p["d_out"] * p["num_heads"]), _run(p)),
    "weight-splits": lambda x, p: weight_splits(x, _config(x, p), _run(p)),
    "efficient": lambda x, p: (lambda r: {"": r.trace, "book": r.book.trace(r.batch)})(  # book: the printed output
        efficient_variants(x, _config(x, p), _run(p))),
    "text-to-attention": lambda x, p: text_to_attention(
        [s for s in p["sentences"].splitlines() if s.strip()][:8], d_model=p["d_model"], num_heads=p["num_heads"],
        seed=p["seed"], positional=p["positional"], causal=p["causal"], query_sentence=p["query_sentence"],
        key_sentence=p["key_sentence"]),
}


def resolved_settings(spec: Any) -> dict[str, Any]:
    """Every setting the notebook runs with, its expressions of the inputs worked out (its own two state cells)."""
    from ui.sharing.notebook import state_code

    namespace: dict[str, Any] = {"torch": torch}
    exec(state_code(spec), namespace)  # noqa: S102 - the notebook's own generated cells
    return {k: v for k, v in namespace.items() if k not in ("torch", "__builtins__")}


def app_traces(page: str, inputs: torch.Tensor, settings: Mapping[str, Any]) -> dict[str, Trace]:
    """The traces the page draws at these settings, by prefix ("" for a result's only or main trace)."""
    result = ORACLE[page](inputs, settings)
    if isinstance(result, dict):
        return result
    return traces_in(result)


# ----- random valid states -----------------------------------------------------------------------------------------
WORDS = ("the", "cat", "sat", "on", "a", "mat", "and", "dog", "ran", "far", "home", "sky")


def random_matrix(rng, *, dims=(2, 5), tokens=(2, 7)) -> InputMatrix:
    n, d = rng.randint(*tokens), rng.randint(*dims)
    names = [f"{rng.choice(WORDS)}{k}" for k in range(n)]
    return InputMatrix(tuple(names), [[round(rng.uniform(-2, 2), 2) for _ in range(d)] for _ in range(n)])


def _rate(rng) -> float:
    return round(0.05 * rng.randint(0, 18), 6)  # one of the dropout slider's options


def _seed(rng) -> int:
    return rng.randint(0, 10_000)


def _later_state(rng) -> dict[str, Any]:
    return {"causal": rng.random() < 0.5, "dropout": _rate(rng), "training": rng.random() < 0.7}


def _module_state(rng, d_out: int) -> dict[str, Any]:
    return {"d_out": d_out, "seed": _seed(rng), "qkv_bias": rng.random() < 0.5, "batch": rng.randint(1, 3),
            "causal": rng.random() < 0.6, "dropout": _rate(rng), "training": rng.random() < 0.7}


def _divisor(rng, n: int) -> int:
    return rng.choice([h for h in range(1, min(n, 8) + 1) if n % h == 0])


def random_state(page: str, rng) -> tuple[InputMatrix, dict[str, Any]]:
    """A random matrix and control values the page accepts (its widgets' ranges and options)."""
    m = random_matrix(rng)
    n = m.num_tokens
    states = {
        "long-sequences": lambda: {"hidden": rng.randint(1, 8), "scale": round(0.1 * rng.randint(1, 20), 6),
                                   "seed": _seed(rng)},
        "dependencies": lambda: {"hidden": rng.randint(1, 8), "query": rng.randrange(n), "seed": _seed(rng)},
        "one-query": lambda: {"query": rng.randrange(n), "normalisation": rng.choice(NORMALISATIONS),
                              "seed": _seed(rng), **_later_state(rng)},
        "all-queries": lambda: {"normalisation": rng.choice(NORMALISATIONS), "seed": _seed(rng),
                                **_later_state(rng)},
        "trainable-steps": lambda: {"query": rng.randrange(n), "seed": _seed(rng), "d_out": rng.randint(1, 4),
                                    **_later_state(rng)},
        "self-attention-classes": lambda: {"seed_v1": _seed(rng), "seed_v2": _seed(rng), "d_out": rng.randint(1, 4),
                                           "qkv_bias": rng.random() < 0.4, "causal": rng.random() < 0.5},
        "causal-mask": lambda: {"seed": _seed(rng), "d_out": rng.randint(1, 4), "qkv_bias": rng.random() < 0.5,
                                "causal": rng.random() < 0.7},
        "dropout": lambda: {"dropout": _rate(rng), "seed": _seed(rng), "training": rng.random() < 0.7,
                            "causal": rng.random() < 0.6},
        "causal-class": lambda: {**_module_state(rng, rng.randint(1, 4)), "context_length": rng.randint(n, n + 4)},
        "stacking-heads": lambda: {**_module_state(rng, rng.randint(1, 3)), "num_heads": rng.randint(1, 4)},
        "weight-splits": lambda: (lambda d: {**_module_state(rng, d), "num_heads": _divisor(rng, d)})(
            rng.choice([2, 4, 6, 8])),
        "efficient": lambda: (lambda d: {k: v for k, v in {**_module_state(rng, d), "num_heads": _divisor(rng, d)}
                                         .items() if k not in ("dropout", "training")})(rng.choice([2, 3, 4, 6])),
        "text-to-attention": lambda: _text_state(rng),
    }
    return m, states[page]()


def _text_state(rng) -> dict[str, Any]:
    sentences = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))) for _ in range(rng.randint(1, 3))]
    d_model = rng.choice([4, 8, 12, 16])
    return {"sentences": "\n".join(sentences), "d_model": d_model, "seed": _seed(rng),
            "num_heads": rng.choice([h for h in (1, 2, 4, 8) if d_model % h == 0]),
            "query_sentence": rng.randrange(len(sentences)), "key_sentence": rng.randrange(len(sentences)),
            "positional": rng.random() < 0.7, "causal": rng.random() < 0.4}
