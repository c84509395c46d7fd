# %% setup
import torch
from torch import nn

# %% inputs
tokens = ["Your", "journey", "starts", "with", "one", "step"]
inputs = torch.tensor([
    [0.43, 0.15, 0.89],  # 'Your'
    [0.55, 0.87, 0.66],  # 'journey'
    [0.57, 0.85, 0.64],  # 'starts'
    [0.22, 0.58, 0.33],  # 'with'
    [0.77, 0.25, 0.10],  # 'one'
    [0.05, 0.80, 0.55],  # 'step'
])  # (num_tokens, d_in)

# %% settings
hidden = 4  # the size of the RNN's hidden state
query = inputs.shape[0] - 1  # the decoder step to look at (0 is the first)
seed = 123

# %% encoder -> hidden_states, final_state
recurrent_scale = 0.6  # this page keeps the largest stretch of W_h at 0.6
torch.manual_seed(seed)
rnn = nn.RNN(inputs.shape[1], hidden, nonlinearity="tanh", batch_first=True)
with torch.no_grad():
    W_rec = rnn.weight_hh_l0  # (hidden, hidden)
    W_rec.mul_(recurrent_scale / torch.linalg.matrix_norm(W_rec, ord=2))
x = inputs.unsqueeze(0).requires_grad_(True)  # (1, num_tokens, d_in): a batch of one sentence
hidden_states, _ = rnn(x)  # (1, num_tokens, hidden)
h_T = hidden_states[0, -1]  # (hidden,)
print(hidden_states[0].detach())  # (num_tokens, hidden): h_1 ... h_T
print(h_T.detach())

# %% influence -> influence_share
influence = torch.zeros(inputs.shape[0])
for k in range(hidden):  # one backward pass for each unit of h_T
    (grad,) = torch.autograd.grad(h_T[k], x, retain_graph=True)  # (1, num_tokens, d_in)
    influence += grad[0].pow(2).sum(dim=-1)  # (num_tokens,)
influence = influence.sqrt()  # the size of d h_T / d x_t for each token t
print(influence / influence.sum())

# %% layers
torch.manual_seed(seed + 1)
W_s = nn.Linear(hidden, hidden, bias=False)  # for the decoder state s_i
W_h = nn.Linear(hidden, hidden, bias=False)  # for the encoder state h_j
v = nn.Linear(hidden, 1, bias=False)  # turns each mix into one score

# %% scores -> scores
h = hidden_states[0].detach()  # (num_tokens, hidden): the encoder states
s = h  # the decoder states: in this toy, the encoder's own states
with torch.no_grad():
    # (num_tokens, 1, hidden) + (1, num_tokens, hidden) -> (num_tokens, num_tokens, hidden)
    mixed = torch.tanh(W_s(s).unsqueeze(1) + W_h(h).unsqueeze(0))
    attn_scores = v(mixed).squeeze(-1)  # (num_tokens, num_tokens, 1) -> (num_tokens, num_tokens)
print(attn_scores)

# %% weights -> weights
attn_weights = torch.softmax(attn_scores, dim=-1)  # each row sums to 1
print(attn_weights)
best = attn_weights[query].argmax().item()
print(f"Decoder step {query + 1} gives encoder state h_{best + 1} the most weight: "
      f"{attn_weights[query, best].item():.4f}")

# %% context -> context
context = attn_weights @ h  # (num_tokens, num_tokens) @ (num_tokens, hidden) -> (num_tokens, hidden)
print(context)
