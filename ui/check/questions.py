"""Check yourself: every section's questions, each answer computed from the page's live result.

A page hands its typed result (a Trace, or a record such as ``HeadsResult``) and the
settings it used to :func:`ui.check.panel.check_yourself`, as a :class:`Live`. Each
:class:`Question` has one short function from that ``Live`` to an :class:`Answer`: the
right value, the values to fill its words with, and the values that known mistakes give
(unscaled instead of scaled, row instead of column...). Nothing here is hard-coded: edit the
matrix or a control and every answer follows. Plain Python (no Streamlit); the words live in
the pages' content files as ``[questions.<id>]`` tables (``prompt``, ``feedback_<mistake>``,
``option_<id>``, ``unavailable_<reason>``, ``reveal_title``, ``tolerance``).

Kinds: ``number`` (checked to the content's tolerance), ``choice`` (pick one), ``shape``,
``predict`` (pick one; the page's hidden result is drawn beside the guess once committed),
``task`` (the learner sets the page's controls; the live module is checked) and ``mapping``
(Exercise 3.1: how each of v2's weights goes into v1; v1 is built that way and run).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import torch

from attention import GPT2_SMALL, Trace, normalise
from attention.ops import MASK_PATTERNS, mask_pattern
from attention.trainable import V2_TO_V1_WAYS, transfer_gap

from .answers import Parsed, Unparsed, format_number, format_shape, parse_choice, parse_number, parse_shape

__all__ = [
    "KINDS", "QUESTIONS", "ROLES", "Answer", "Live", "Question", "Unavailable", "Verdict", "answer_for", "completed",
    "judge", "shown_answer", "signature",
]

NUMBER, CHOICE, SHAPE, PREDICT, TASK, MAPPING = "number", "choice", "shape", "predict", "task", "mapping"
KINDS = (NUMBER, CHOICE, SHAPE, PREDICT, TASK, MAPPING)
ROLES = ("W_query", "W_key", "W_value")
AGREE = 1e-5  # Exercise 3.1: outputs this close are the same up to float rounding
# Feedback every question may give without words of its own (app-wide: check_<name> in _app.toml).
GENERIC = ("correct", "wrong", "too_high", "too_low", "rank", "book")


@dataclass(frozen=True)
class Live:
    """What a page computed, for its questions."""

    result: Any  # the page's typed result: a Trace or a result record
    labels: tuple[str, ...]  # the tokens' names
    inputs: torch.Tensor  # the (T, d_in) input matrix
    given: Mapping[str, Any] = field(default_factory=dict)  # settings the page passes (query index, heads...)
    book: Live | None = None  # the same page at the book's matrix and settings, while the learner's differ


@dataclass(frozen=True)
class Verdict:
    correct: bool
    feedback: str  # "correct", a generic name (GENERIC) or one of the question's mistakes
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Answer:
    """A question's answer under the live inputs, and what its words need."""

    value: Any  # a float, a shape tuple, an option id; for tasks and mappings, what the check depends on
    fields: Mapping[str, Any] = field(default_factory=dict)  # fill the prompt and the feedback
    mistakes: Mapping[str, Any] = field(default_factory=dict)  # mistake -> the answer it gives (a choice: or a tuple)
    options: tuple[str, ...] = ()  # choices, by id, in order
    labels: Mapping[str, str] = field(default_factory=dict)  # names of choices that are not option_<id> words
    whole: bool = False  # a count: shown as a whole number
    reveal: tuple[Trace, str] | None = None  # predict: the step drawn beside the guess once committed
    check: Callable[[Any], Verdict] | None = None  # tasks and mappings: how an answer is judged


@dataclass(frozen=True)
class Unavailable:
    """The question cannot be asked with these settings; ``reason`` names its unavailable_<reason> words."""

    reason: str


@dataclass(frozen=True)
class Question:
    id: str
    kind: str
    answer: Callable[[Live], Answer | Unavailable]
    mistakes: tuple[str, ...] = ()  # every feedback_<name> it may give (the content test checks the words)
    options: tuple[str, ...] = ()  # choices named in the content file (option_<id>)
    unavailable: tuple[str, ...] = ()  # reasons it may be unavailable (unavailable_<reason>)


# ----- judging --------------------------------------------------------------------------------------


def answer_for(question: Question, live: Live) -> Answer | Unavailable:
    """The question's answer under the live state. Where the learner changed the matrix or a control, a number
    that the book's own state gives is the first known mistake ("book"): a learner who types the value the
    book prints hears that the page's answer differs from the book's, not a coincidental wrong diagnosis."""
    answer = question.answer(live)
    if question.kind != NUMBER or live.book is None or not isinstance(answer, Answer):
        return answer
    book = question.answer(live.book)
    # the same question up to the tokens' names: the query x(2), whatever the learner renamed "journey" to
    same_question = isinstance(book, Answer) and (_plain(book.fields, live.book.labels)
                                                  == _plain(answer.fields, live.labels))
    if not same_question or book.value == answer.value:
        return answer
    return replace(answer, mistakes={"book": book.value, **answer.mistakes})


def _plain(fields: Mapping[str, Any], labels: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Fields comparable as text; with ``labels``, a token's name stands as its position."""
    def plain(value: Any) -> str:
        return f"token #{labels.index(value)}" if isinstance(value, str) and value in labels else repr(value)
    return sorted((k, plain(v)) for k, v in fields.items())


def judge(question: Question, answer: Answer, given: Any, tolerance: float | None,
          option_words: Mapping[str, str] | None = None, *, decimal_comma: bool = False) -> Verdict | Unparsed:
    """How ``given`` (what the learner entered) compares with the live ``answer``; never raises on bad input.

    ``option_words`` name the choices the content file names (option_<id>), for the feedback;
    ``decimal_comma``: the learner's language writes 0,125 (see answers.parse_number).
    """
    if answer.check is not None:
        return answer.check(given)
    if question.kind == NUMBER:
        return _judge_number(answer, parse_number(given, decimal_comma=decimal_comma), tolerance or 0.0)
    if question.kind == SHAPE:
        return _judge_shape(answer, parse_shape(given))
    parsed = parse_choice(given, answer.options)
    if isinstance(parsed, Unparsed):
        return parsed
    shown = (option_words or {}).get(parsed.value) or _choice_name(answer, parsed.value)
    return _verdict(answer, parsed.value, parsed.value == answer.value,
                    lambda m: parsed.value in m if isinstance(m, tuple) else parsed.value == m, shown)


def _judge_number(answer: Answer, parsed: Parsed | Unparsed, tolerance: float) -> Verdict | Unparsed:
    if isinstance(parsed, Unparsed):
        return parsed
    given = parsed.value
    right = abs(given - answer.value) <= tolerance
    # a right answer is confirmed with the exact value: "0.99" is right for 0.9929, and "Correct: 0.9900" read as if
    # 0.9900 were the value
    shown = format_number(float(answer.value) if right else given, whole=answer.whole)
    verdict = _verdict(answer, given, right, lambda m: abs(given - m) <= tolerance, shown)
    if verdict.feedback == "wrong":
        return Verdict(False, "too_high" if given > answer.value else "too_low", verdict.fields)
    return verdict


def _judge_shape(answer: Answer, parsed: Parsed | Unparsed) -> Verdict | Unparsed:
    if isinstance(parsed, Unparsed):
        return parsed
    given = parsed.value
    verdict = _verdict(answer, given, given == tuple(answer.value), lambda m: given == tuple(m), format_shape(given))
    if verdict.feedback == "wrong" and len(given) != len(answer.value):
        return Verdict(False, "rank", {**verdict.fields, "given_rank": len(given), "rank": len(answer.value)})
    return verdict


def _verdict(answer: Answer, given: Any, right: bool, matches: Callable[[Any], bool], shown: str) -> Verdict:
    fields = {"given": shown}
    if right:
        return Verdict(True, "correct", fields)
    for mistake, value in answer.mistakes.items():
        if matches(value):
            return Verdict(False, mistake, fields)
    return Verdict(False, "wrong", fields)


def _choice_name(answer: Answer, option: str) -> str:
    return answer.labels.get(option, option)


def shown_answer(question: Question, answer: Answer, option_words: Mapping[str, str] | None = None) -> str:
    """The answer as it is shown when the learner asks for it."""
    value = answer.value
    if question.kind == NUMBER:
        return format_number(float(value), whole=answer.whole)
    if question.kind == SHAPE:
        return format_shape(value)
    if question.kind in (CHOICE, PREDICT):
        return (option_words or {}).get(value) or _choice_name(answer, value)
    return str(answer.fields.get("answer", ""))


def signature(answer: Answer) -> str:
    """A fingerprint of what the answer depends on: when it changes, an earlier check is stale."""
    plain = repr((answer.value, _plain(answer.fields), answer.options,
                  sorted(answer.labels.items())))
    return hashlib.sha1(plain.encode()).hexdigest()


def completed(page_id: str, done: set[str] | frozenset[str]) -> bool:
    """Whether every question of a page (that has questions) was answered correctly at least once."""
    questions = QUESTIONS.get(page_id, ())
    return bool(questions) and all(q.id in done for q in questions)


# ----- helpers over results -------------------------------------------------------------------------


def _f(t: torch.Tensor | float) -> float:
    return float(t)


def _tokens(live: Live) -> tuple[tuple[str, ...], dict[str, str]]:
    """Choices over the tokens: ids "0".."T-1" and their names as the page shows them."""
    ids = tuple(str(i) for i in range(len(live.labels)))
    return ids, {str(i): f"x({i + 1}) “{t}”" for i, t in enumerate(live.labels)}


def _token_answer(live: Live, index: int, fields: Mapping[str, Any], mistakes: Mapping[str, int],
                  **more: Any) -> Answer:
    ids, names = _tokens(live)
    return Answer(str(index), fields, {m: str(i) for m, i in mistakes.items() if i != index}, ids, names, **more)


def _applied(trace: Trace) -> torch.Tensor:
    return trace.applied_weights.tensor


def _digest(*tensors: torch.Tensor) -> str:
    h = hashlib.sha1()
    for t in tensors:
        h.update(t.detach().contiguous().float().numpy().tobytes())
    return h.hexdigest()


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


# ----- 3.5: causal attention ----------------------------------------------------------------------------


def _hidden_cells(live: Live) -> Answer | Unavailable:
    value = mask_pattern(live.result.hidden_cells())
    if value is None:
        return Unavailable("pattern")
    if value == "none":
        mistakes = {"mask_off": "above"}
    else:
        mistakes = {"diagonal": "diagonal", "below": "below", "none": "none"}
    return Answer(value, {"n": len(live.labels)}, mistakes, MASK_PATTERNS)


def _masked_weight(live: Live) -> Answer | Unavailable:
    trace = live.result
    if "masked_weights" not in trace:
        return Unavailable("mask_off")
    if len(live.labels) < 2:
        return Unavailable("tokens")
    fields = {"token": live.labels[1], "first": live.labels[0]}
    # Zeroing the future leaves column 1 as it was: before masking and before renormalising are one mistake.
    return Answer(_f(trace["masked_weights"][1, 0]), fields, {"unmasked": _f(trace["weights"][1, 0])})


def _left_in_row(live: Live) -> Answer | Unavailable:
    trace = live.result
    if "row_sums" not in trace:
        return Unavailable("mask_off")
    row = min(1, len(live.labels) - 1)
    return Answer(_f(trace["row_sums"][row]), {"q": row + 1, "token": live.labels[row]}, {"one": 1.0})


def _dropout_fields(live: Live) -> dict[str, Any]:
    return {"p": f"{live.given['p']:g}", "scale": f"{1 / (1 - live.given['p']):.4g}"}


def _survivor(live: Live) -> Answer | Unavailable:
    trace, p = live.result.trace, live.given["p"]
    kept = trace["keep"].bool()
    if not bool(kept.any()):
        return Unavailable("none_kept")
    return Answer(_f(trace["dropped_example"][kept][0]), _dropout_fields(live),
                  {"unscaled": 1.0, "keep_rate": 1.0 - p, "p": p})


def _dropped_count(live: Live) -> Answer:
    trace, p = live.result.trace, live.given["p"]
    keep, training = trace["keep"], live.given["training"]
    expected = float(round(keep.numel() * p))  # what p predicts on average; the draw decides
    fields = {**_dropout_fields(live), "cells": keep.numel()}
    mistakes = {"expected" if training else "eval": expected, "kept": float(keep.sum())}
    return Answer(float((keep == 0).sum()), fields, mistakes, whole=True)


def _cell_after(live: Live) -> Answer | Unavailable:
    trace, p = live.result.trace, live.given["p"]
    if len(live.labels) < 2:
        return Unavailable("tokens")
    before, after = _f(trace["weights"][1, 0]), _f(trace["dropped_weights"][1, 0])
    mistakes = {"before": before}
    if bool(trace["keep"][1, 0]):
        mistakes["dropped"] = 0.0  # it survived: not 0
    else:
        mistakes["survived"] = before / (1 - p)  # it was dropped: not scaled up
    fields = {**_dropout_fields(live), "token": live.labels[1], "first": live.labels[0]}
    return Answer(after, fields, mistakes)


def _causal_context_shape(live: Live) -> Answer:
    b, n, d_out = live.result.trace["context"].shape
    d_in = live.inputs.shape[1]
    fields = {"batch": b, "n": n, "d_out": d_out, "d_in": d_in}
    return Answer((b, n, d_out), fields, {"no_batch": (n, d_out), "weights": (b, n, n), "d_in": (b, n, d_in)})


def _mask_buffer_shape(live: Live) -> Answer:
    shape, n = live.result.buffers["mask"], len(live.labels)
    return Answer(tuple(shape), {"context_length": shape[0], "n": n}, {"sliced": (n, n)})


def _hidden_count(live: Live) -> Answer:
    result, n = live.result, len(live.labels)
    hidden = result.trace.hidden_cells((0,))
    count = 0 if hidden is None else int(hidden.sum())
    batch = result.batch_shape[0]
    mistakes = {"diagonal": n * (n + 1) / 2, "whole_batch": batch * count} if count else {"mask_off": n * (n - 1) / 2}
    return Answer(float(count), {"n": n, "batch": batch}, mistakes, whole=True)


# ----- 3.6: multi-head attention --------------------------------------------------------------------------


EXERCISE_3_2 = (2, 2)  # the book's Exercise 3.2: a 2-dimensional output, keeping num_heads=2


def _exercise_3_2(live: Live) -> Answer:
    shape, heads, d_out = tuple(live.result.trace["output"].shape), live.given["heads"], live.given["d_out"]
    width, target_heads = EXERCISE_3_2
    fields = {"shape": format_shape(shape), "width": shape[-1], "heads": heads, "d_out": d_out,
              "target_width": width, "target_heads": target_heads,
              "answer": f"d_out = {width // target_heads}, num_heads = {target_heads}"}

    def check(_: Any) -> Verdict:
        if shape[-1] == width and heads == target_heads:
            return Verdict(True, "correct", fields)
        return Verdict(False, "heads" if shape[-1] == width else "width", fields)

    return Answer((shape, heads, d_out), fields, check=check)


def _head_fields(live: Live) -> dict[str, Any]:
    g = live.given
    return {"d_in": live.inputs.shape[1], "d_out": g["d_out"], "heads": g["heads"], "bias": g["qkv_bias"]}


def _output_width(live: Live) -> Answer:
    fields = _head_fields(live)
    width = live.result.trace["output"].shape[-1]
    return Answer(float(width), fields, {"per_head": float(fields["d_out"]), "heads_only": float(fields["heads"])},
                  whole=True)


def _bias_mistakes(count: int, biases: int, with_bias: bool) -> dict[str, float]:
    return {"forgot_bias": float(count - biases)} if with_bias else {"counted_bias": float(count + biases)}


def _wrapper_parameters(live: Live) -> Answer:
    fields, count = _head_fields(live), live.result.parameters
    biases = 3 * fields["d_out"] * fields["heads"]
    mistakes = {"one_head": count / fields["heads"], **_bias_mistakes(count, biases, fields["bias"])}
    return Answer(float(count), fields, mistakes, whole=True)


def _split_fields(live: Live) -> dict[str, Any]:
    b, n, heads, head_dim = live.result.trace["queries_split"].shape
    return {"batch": b, "n": n, "heads": heads, "head_dim": head_dim, "d_out": heads * head_dim}


def _split_shape(live: Live) -> Answer:
    trace, f = live.result.trace, _split_fields(live)
    return Answer(tuple(trace["queries_split"].shape), f,
                  {"by_head": tuple(trace["queries_by_head"].shape), "not_split": (f["batch"], f["n"], f["d_out"])})


def _weights_shape(live: Live) -> Answer:
    f = _split_fields(live)
    b, h, n = f["batch"], f["heads"], f["n"]
    mistakes = {"no_heads": (b, n, n), "context": (b, h, n, f["head_dim"])}
    return Answer(tuple(live.result.trace["weights"].shape), f, mistakes)


def _exercise_3_3(live: Live) -> Answer:
    count, d = live.result.gpt2_parameters, GPT2_SMALL.d_out
    fields = {"args": ", ".join(str(a) for a in GPT2_SMALL.book_args()[:5]), "d": d}
    mistakes = {"no_out_bias": count - d, "no_out_proj": count - d * d - d, "qkv_bias": count + 3 * d}
    return Answer(float(count), fields, {k: float(v) for k, v in mistakes.items()}, whole=True)


def _splits_parameters(live: Live) -> Answer:
    count, g = live.result.parameters, live.given
    fields = _head_fields(live)
    d = g["d_out"]
    mistakes = {"no_out_proj": float(count - d * d - d), "no_out_bias": float(count - d),
                **_bias_mistakes(count, 3 * d, g["qkv_bias"])}
    return Answer(float(count), fields, mistakes, whole=True)


# ----- the registry: page id -> its questions, in order -------------------------------------------------------

QUESTIONS: dict[str, tuple[Question, ...]] = {
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
    "causal-mask": (
        Question("hidden_cells", CHOICE, _hidden_cells, ("diagonal", "below", "none", "mask_off"),
                 ("above", "diagonal", "below", "none"), ("pattern",)),
        Question("masked_weight", NUMBER, _masked_weight, ("unmasked",), (),
                 ("mask_off", "tokens")),
        Question("left_in_row", NUMBER, _left_in_row, ("one",), (), ("mask_off",)),
    ),
    "dropout": (
        Question("survivor", NUMBER, _survivor, ("unscaled", "keep_rate", "p"), (), ("none_kept",)),
        Question("dropped_count", NUMBER, _dropped_count, ("expected", "eval", "kept")),
        Question("cell_after", NUMBER, _cell_after, ("before", "dropped", "survived"), (), ("tokens",)),
    ),
    "causal-class": (
        Question("context_shape", SHAPE, _causal_context_shape, ("no_batch", "weights", "d_in")),
        Question("mask_shape", SHAPE, _mask_buffer_shape, ("sliced",)),
        Question("hidden_count", NUMBER, _hidden_count, ("diagonal", "whole_batch", "mask_off")),
    ),
    "stacking-heads": (
        Question("exercise_3_2", TASK, _exercise_3_2, ("correct", "heads", "width")),
        Question("output_width", NUMBER, _output_width, ("per_head", "heads_only")),
        Question("parameters", NUMBER, _wrapper_parameters, ("one_head", "forgot_bias", "counted_bias")),
    ),
    "weight-splits": (
        Question("split_shape", SHAPE, _split_shape, ("by_head", "not_split")),
        Question("weights_shape", SHAPE, _weights_shape, ("no_heads", "context")),
        Question("exercise_3_3", NUMBER, _exercise_3_3, ("no_out_bias", "no_out_proj", "qkv_bias")),
        Question("parameters", NUMBER, _splits_parameters, ("no_out_proj", "no_out_bias", "forgot_bias",
                                                           "counted_bias")),
    ),
}
