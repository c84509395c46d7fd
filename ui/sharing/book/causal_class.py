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
d_out = 2
seed = 123
qkv_bias = False
batch = 2  # how many copies of the inputs go in one batch
causal = True
dropout = 0.0
training = True
context_length = inputs.shape[0]  # the mask buffer's size: at least the number of tokens
d_in = inputs.shape[1]


# %% model
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False, causal=True):
        super().__init__()
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))
        self.causal = causal  # not in the book: False leaves the mask out

    def forward(self, x):
        b, num_tokens, d_in = x.shape  # (b, num_tokens, d_in)
        keys = self.W_key(x)  # (b, num_tokens, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        attn_scores = queries @ keys.transpose(1, 2)  # (b, num_tokens, num_tokens)
        if self.causal:
            attn_scores = attn_scores.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = attn_weights @ values  # (b, num_tokens, d_out)
        return context_vec


torch.manual_seed(seed)
ca = CausalAttention(d_in, d_out, context_length, dropout, qkv_bias, causal)
ca.train(training)  # training = False: eval mode, where dropout does nothing
x = torch.stack([inputs] * batch, dim=0)  # (batch, num_tokens, d_in)
print(x.shape)
print(ca.mask.shape)  # the buffer: (context_length, context_length)
print(list(ca.state_dict().keys()))

# %% projections -> queries, keys, values
with torch.no_grad():
    queries = ca.W_query(x)  # (b, num_tokens, d_out)
    keys = ca.W_key(x)
    values = ca.W_value(x)
print(queries)
print(keys)
print(values)

# %% scores -> scores
attn_scores = queries @ keys.transpose(1, 2)  # (b, num_tokens, d_out) @ (b, d_out, num_tokens)
print(attn_scores)

# %% masked if causal -> masked_scores
num_tokens = x.shape[1]
attn_scores = attn_scores.masked_fill(ca.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
print(attn_scores)

# %% weights -> weights
attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)  # (b, num_tokens, num_tokens)
print(attn_weights)

# %% dropout if dropout > 0 and training -> dropped_weights
torch.manual_seed(123)
attn_weights = ca.dropout(attn_weights)
print(attn_weights)

# %% context -> context
torch.manual_seed(123)  # the same dropout draws as above
with torch.no_grad():
    context_vecs = ca(x)  # (b, num_tokens, d_out)
print(context_vecs)
print(torch.allclose(context_vecs, attn_weights @ values, atol=1e-6))
