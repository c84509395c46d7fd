"""The questions of 3.1 to 3.4 (why attention, simplified and trainable self-attention), each answer computed from
the page's live result, and their part of the registry (ui/check/questions.py gathers it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import torch

from attention import Trace, normalise
from attention.trainable import V2_TO_V1_WAYS, transfer_gap

from .answers import Unparsed
from .question_types import (
    CHOICE,
    MAPPING,
    NUMBER,
    PREDICT,
    ROLES,
    SHAPE,
    Answer,
    Live,
    Question,
    Unavailable,
    Verdict,
    _applied,
    _digest,
    _f,
    _token_answer,
)

__all__ = ["SELF_ATTENTION"]

AGREE = 1e-5  # Exercise 3.1: outputs this close are the same up to float rounding


# ----- 3.1 and 3.2: why attention ---------------------------------------------------------------------


def _least_moved(live: Live) -> Answer:
    share = live.result["influence_share"]
    fields = {"hidden": live.given["hidden"], "scale": live.given["scale"]}
    return _token_answer(live, int(share.argmin()), fields, {"most": int(share.argmax())})


def _last_to_first(live: Live) -> Answer:
    attention, n = live.given["attention"], len(live.labels)
    weights = attention["weights"]
    fields = {"last": live.labels[-1], "first": live.labels[0], "n": n}
    return Answer(_f(weights[n - 1, 0]), fields,
                  {"row_column": _f(weights[0, n - 1]), "score": _f(attention["scores"][n - 1, 0])})


def _top_state(live: Live) -> Answer:
    q, weights = live.given["query"], live.result["weights"]
    fields = {"step": q + 1, "token": live.labels[q]}
    return _token_answer(live, int(weights[q].argmax()), fields, {"column": int(weights[:, q].argmax())})


def _state_weight(live: Live) -> Answer:
    q, weights = live.given["query"], live.result["weights"]
    fields = {"step": q + 1, "token": live.labels[q], "first": live.labels[0]}
    return Answer(_f(weights[q, 0]), fields,
                  {"row_column": _f(weights[0, q]), "score": _f(live.result["scores"][q, 0])})


# ----- 3.3: simplified self-attention -------------------------------------------------------------------


def _one_query_score(live: Live) -> Answer:
    q, scores = live.given["query"], live.result["scores"]
    fields = {"q": q + 1, "token": live.labels[q], "first": live.labels[0]}
    mistakes = {"weight": _f(_applied(live.result)[0])}
    if len(scores) > 1:
        mistakes["off_by_one"] = _f(scores[1])
    if q != 0:
        mistakes["self"] = _f(scores[q])
    return Answer(_f(scores[0]), fields, mistakes)


def _seen(trace: Trace) -> torch.Tensor:
    """The keys the query sees: all of them, or those the causal mask leaves (True where seen)."""
    return (trace["masked_scores"] if "masked_scores" in trace else trace["scores"]).isfinite()


def _one_query_top_key(live: Live) -> Answer:
    q, weights, seen = live.given["query"], _applied(live.result), _seen(live.result)
    fields = {"q": q + 1, "token": live.labels[q]}
    # the least weight among the keys the query sees: a masked key's 0 is not "the least" (m5)
    least = int(weights.masked_fill(~seen, float("inf")).argmin())
    answer = _token_answer(live, int(weights.argmax()), fields, {"self": q, "least": least})
    hidden = tuple(str(j) for j in range(len(seen)) if not seen[j])
    return replace(answer, mistakes={"masked": hidden, **answer.mistakes}) if hidden else answer


def _one_query_context(live: Live) -> Answer:
    q, trace = live.given["query"], live.result
    x, seen = trace["inputs"][:, 0], _seen(trace)
    scores = trace["masked_scores"] if "masked_scores" in trace else trace["scores"]
    fields = {"q": q + 1, "token": live.labels[q]}
    # the plain average of what the query sees: with the causal mask on, of the keys it leaves (m5)
    return Answer(_f(trace["context"][0]), fields,
                  {"mean": _f(x[seen].mean()), "scores": _f((scores.nan_to_num(neginf=0.0) * x).sum())})


def _predicted_row(live: Live) -> int:
    return min(2, len(live.labels) - 1)  # "starts" in the book's sentence


def _predict_top(live: Live) -> Answer:
    trace, row = live.result, _predicted_row(live)
    weights = _applied(trace)
    fields = {"q": row + 1, "token": live.labels[row]}
    mistakes = {"column": int(weights[:, row].argmax()), "scores": int(trace["scores"][row].argmax()), "self": row}
    return _token_answer(live, int(weights[row].argmax()), fields, mistakes,
                         reveal=(trace, trace.applied_weights.name))


def _scores_shape(live: Live) -> Answer:
    n, d = live.inputs.shape
    return Answer(tuple(live.result["scores"].shape), {"n": n, "d": d}, {"gram": (d, d), "inputs": (n, d)})


def _row_sum(live: Live) -> Answer:
    row, weights = min(1, len(live.labels) - 1), _applied(live.result)
    fields = {"q": row + 1, "token": live.labels[row]}
    return Answer(_f(weights[row].sum()), fields, {"one": 1.0, "column": _f(weights[:, row].sum())})


# ----- 3.4: trainable weights -------------------------------------------------------------------------------


def _trainable_fields(live: Live) -> dict[str, Any]:
    q, d_k = live.given["query"], live.result["keys"].shape[-1]
    return {"q": q + 1, "token": live.labels[q], "first": live.labels[0], "d_k": d_k, "sqrt_d_k": f"{d_k ** 0.5:.4g}"}


def _scaled_score(live: Live) -> Answer:
    trace, fields = live.result, _trainable_fields(live)
    score = trace["scores"][0]
    return Answer(_f(trace["scaled_scores"][0]), fields,
                  {"unscaled": _f(score), "by_d_k": _f(score / fields["d_k"]), "weight": _f(_applied(trace)[0])})


def _keys_shape(live: Live) -> Answer:
    trace = live.result
    n, d_out = trace["keys"].shape
    fields = {"n": n, "d_out": d_out, "d_in": live.inputs.shape[1]}
    return Answer((n, d_out), fields, {"transposed": (d_out, n), "w_key": tuple(trace["W_key"].shape)})


def _trainable_weight(live: Live) -> Answer:
    trace, fields = live.result, _trainable_fields(live)
    scores = trace["masked_scores"] if "masked_scores" in trace else trace["scores"]
    return Answer(_f(_applied(trace)[0]), fields,
                  {"unscaled": _f(normalise(scores, "softmax")[0]), "score": _f(trace["scaled_scores"][0])})


def _exercise_3_1(live: Live) -> Answer | Unavailable:
    v2 = live.result.v2_module
    if v2.W_query.bias is not None:
        return Unavailable("bias")
    fields = {"d_in": v2.d_in, "d_out": v2.d_out, "answer": ", ".join(f"{r} → weight.T" for r in ROLES)}

    def check(ways: Any) -> Verdict | Unparsed:
        if not isinstance(ways, Mapping) or any(ways.get(r) not in V2_TO_V1_WAYS for r in ROLES):
            return Unparsed("blank")
        for role in ROLES:  # nn.Linear keeps (d_out, d_in): as it is, it fits v1 only when square
            if ways[role] == "as_is" and v2.d_in != v2.d_out:
                return Verdict(False, "shape", {**fields, "role": role, "shape": (v2.d_out, v2.d_in),
                                                "expected": (v2.d_in, v2.d_out)})
        diff = transfer_gap(v2, dict(ways), live.inputs)
        words = {**fields, "diff": f"{diff:.3g}"}
        if diff <= AGREE:
            return Verdict(True, "correct", words)
        return Verdict(False, "view" if "view" in ways.values() else "differ", words)

    weights = [getattr(v2, r).weight for r in ROLES]
    return Answer(_digest(live.inputs, *weights), fields, check=check)


def _v2_weight_shape(live: Live) -> Answer:
    v2 = live.result.v2_module
    shape = tuple(v2.W_query.weight.shape)
    return Answer(shape, {"d_in": v2.d_in, "d_out": v2.d_out}, {"v1_shape": (v2.d_in, v2.d_out)})


# ----- the registry: page id -> its questions, in order -------------------------------------------------------

SELF_ATTENTION: dict[str, tuple[Question, ...]] = {
    "long-sequences": (
        Question("least_moved", CHOICE, _least_moved, ("most",)),
        Question("last_to_first", NUMBER, _last_to_first, ("row_column", "score")),
    ),
    "dependencies": (
        Question("top_state", CHOICE, _top_state, ("column",)),
        Question("state_weight", NUMBER, _state_weight, ("row_column", "score")),
    ),
    "one-query": (
        Question("score", NUMBER, _one_query_score, ("weight", "off_by_one", "self")),
        Question("top_key", CHOICE, _one_query_top_key, ("self", "least", "masked")),
        Question("context", NUMBER, _one_query_context, ("mean", "scores")),
    ),
    "all-queries": (
        Question("predict_top", PREDICT, _predict_top, ("column", "scores", "self")),
        Question("scores_shape", SHAPE, _scores_shape, ("gram", "inputs")),
        Question("row_sum", NUMBER, _row_sum, ("one", "column")),
    ),
    "trainable-steps": (
        Question("scaled_score", NUMBER, _scaled_score, ("unscaled", "by_d_k", "weight")),
        Question("keys_shape", SHAPE, _keys_shape, ("transposed", "w_key")),
        Question("weight", NUMBER, _trainable_weight, ("unscaled", "score")),
    ),
    "self-attention-classes": (
        Question("exercise_3_1", MAPPING, _exercise_3_1, ("correct", "shape", "view", "differ"),
                 V2_TO_V1_WAYS, ("bias",)),
        Question("v2_weight_shape", SHAPE, _v2_weight_shape, ("v1_shape",)),
    ),
}
