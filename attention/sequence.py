"""3.1 and 3.2: why attention. An RNN encoder's bottleneck beside attention.

3.1: a recurrent encoder reads tokens one at a time and hands the decoder a
single hidden state. How much can that last state still "see" of each input?
We measure the influence of token t on the final state as the norm of the
Jacobian d h_T / d x_t: it typically shrinks for early tokens.

3.2: Bahdanau-style (additive) attention lets every decoder step look at all
encoder states directly, with weights that sum to one.
"""

from __future__ import annotations

import torch
from torch import nn

from .errors import ExplainedValueError
from .rng import seeded
from .trace import Trace
from .validation import check_inputs, check_positive_int, check_seed, embedding_width

__all__ = ["rnn_bottleneck", "additive_attention"]


def _encoder(d_in: int, hidden: int, seed: int, recurrent_scale: float) -> nn.RNN:
    with seeded(seed):
        rnn = nn.RNN(d_in, hidden, nonlinearity="tanh", batch_first=True)
    with torch.no_grad():
        # Rescale the recurrent matrix so its largest singular value is recurrent_scale:
        # below 1, old information fades geometrically with every step.
        w = rnn.weight_hh_l0
        w.mul_(recurrent_scale / torch.linalg.matrix_norm(w, ord=2).clamp_min(1e-8))
    return rnn


def rnn_bottleneck(inputs: torch.Tensor, *, hidden: int = 4, seed: int = 123, recurrent_scale: float = 0.6) -> Trace:
    """Encode with a tanh RNN; record every hidden state and each token's influence on the last."""
    inputs = check_inputs(inputs, embedding_width(inputs), ranks=(2,))
    hidden = check_positive_int(hidden, "hidden")
    seed = check_seed(seed)
    if not 0.0 < float(recurrent_scale) <= 3.0:
        raise ExplainedValueError("recurrent_scale must be in (0, 3], got {recurrent_scale}.",
                                  recurrent_scale=recurrent_scale)
    rnn = _encoder(inputs.shape[1], hidden, seed, float(recurrent_scale))
    x = inputs.detach().clone().unsqueeze(0).requires_grad_(True)  # (1, T, d_in)
    states, _ = rnn(x)  # (1, T, hidden)
    last = states[0, -1]
    influence = torch.zeros(inputs.shape[0])
    for k in range(hidden):
        (grad,) = torch.autograd.grad(last[k], x, retain_graph=True)
        influence += grad[0].pow(2).sum(dim=-1)  # (T,)
    influence = influence.sqrt()
    trace = Trace()
    trace.add("inputs", inputs, ("token", "dim"), "the input embeddings, read left to right")
    trace.add("hidden_states", states[0], ("token", "hidden"), "h_t after reading token t")
    trace.add("final_state", last, ("hidden",), "the only thing the decoder receives: h_T")
    trace.add(
        "influence",
        influence,
        ("token",),
        "||d h_T / d x_t||: how strongly token t can still move the final state",
    )
    share = influence / influence.sum().clamp_min(1e-12)
    trace.add("influence_share", share, ("token",), "influence normalised to sum to 1")
    return trace


def additive_attention(inputs: torch.Tensor, *, hidden: int = 4, seed: int = 123,
                       recurrent_scale: float = 0.6) -> Trace:
    """Every decoder step scores every encoder state: e_ij = v . tanh(W_s s_i + W_h h_j).

    For this toy the decoder states s_i are the encoder states themselves,
    so row i asks "which inputs matter for position i?".
    """
    enc = rnn_bottleneck(inputs, hidden=hidden, seed=seed, recurrent_scale=recurrent_scale)
    h = enc["hidden_states"]  # (T, hidden)
    with seeded(seed + 1):
        w_s = nn.Linear(hidden, hidden, bias=False)
        w_h = nn.Linear(hidden, hidden, bias=False)
        v = nn.Linear(hidden, 1, bias=False)
    trace = Trace()
    trace.extend(enc)
    with torch.no_grad():
        # (T, 1, hidden) + (1, T, hidden) -> (T, T, hidden) -> (T, T)
        scores = v(torch.tanh(w_s(h).unsqueeze(1) + w_h(h).unsqueeze(0))).squeeze(-1)
        trace.add("scores", scores, ("query", "key"), "e_ij = v . tanh(W_s s_i + W_h h_j)")
        weights = torch.softmax(scores, dim=-1)
        trace.add("weights", weights, ("query", "key"), "softmax over encoder positions")
        trace.add("context", weights @ h, ("token", "hidden"), "c_i = sum_j alpha_ij h_j")
    return trace
