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
scale = 0.6  # the largest stretch of the recurrent matrix W_h
seed = 123

# %% encoder
torch.manual_seed(seed)
rnn = nn.RNN(inputs.shape[1], hidden, nonlinearity="tanh", batch_first=True)
with torch.no_grad():
    W_h = rnn.weight_hh_l0  # (hidden, hidden)
    W_h.mul_(scale / torch.linalg.matrix_norm(W_h, ord=2))  # its largest singular value is now `scale`

# %% read -> inputs, hidden_states
x = inputs.unsqueeze(0).requires_grad_(True)  # (1, num_tokens, d_in): a batch of one sentence
hidden_states, _ = rnn(x)  # (1, num_tokens, hidden): h_t after each token
print(inputs)
print(hidden_states[0].detach())  # (num_tokens, hidden)

# %% final -> final_state
h_T = hidden_states[0, -1]  # (hidden,)
print(h_T.detach())

# %% influence -> influence
influence = torch.zeros(inputs.shape[0])
for k in range(hidden):  # one backward pass for each unit of h_T
    (grad,) = torch.autograd.grad(h_T[k], x, retain_graph=True)  # (1, num_tokens, d_in)
    influence += grad[0].pow(2).sum(dim=-1)  # (num_tokens,)
influence = influence.sqrt()  # the size of d h_T / d x_t for each token t
print(influence)

# %% share -> influence_share
influence_share = influence / influence.sum()
print(influence_share)

# %% attention -> attention.weights
attn_scores = inputs @ inputs.T  # (num_tokens, d_in) @ (d_in, num_tokens) -> (num_tokens, num_tokens)
attn_weights = torch.softmax(attn_scores, dim=-1)
print(attn_weights)
