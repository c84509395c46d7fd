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
seed_v1 = 123
seed_v2 = 789
d_out = 2
qkv_bias = False
causal = False
d_in = inputs.shape[1]


# %% v1_model
class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out, causal=False):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))
        self.causal = causal  # not in the book: True hides the tokens after each query (3.5)

    def forward(self, x):
        keys = x @ self.W_key  # (num_tokens, d_in) @ (d_in, d_out) -> (num_tokens, d_out)
        queries = x @ self.W_query
        values = x @ self.W_value
        attn_scores = queries @ keys.T  # omega, (num_tokens, num_tokens)
        if self.causal:
            future = torch.triu(torch.ones(x.shape[0], x.shape[0]), diagonal=1).bool()
            attn_scores = attn_scores.masked_fill(future, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        context_vec = attn_weights @ values  # (num_tokens, d_out)
        return context_vec


torch.manual_seed(seed_v1)
sa_v1 = SelfAttention_v1(d_in, d_out, causal=causal)

# %% v1_queries -> v1.queries
with torch.no_grad():
    queries = inputs @ sa_v1.W_query  # (num_tokens, d_out)
    keys = inputs @ sa_v1.W_key
print(queries)

# %% v1_scores -> v1.scores
attn_scores = queries @ keys.T  # (num_tokens, num_tokens)
print(attn_scores)

# %% v1_masked if causal -> v1.masked_scores
future = torch.triu(torch.ones(len(inputs), len(inputs)), diagonal=1).bool()
attn_scores = attn_scores.masked_fill(future, -torch.inf)
print(attn_scores)

# %% v1_weights -> v1.weights
attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
print(attn_weights)

# %% v1_context -> v1.context
with torch.no_grad():
    print(sa_v1(inputs))


# %% v2_model
class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False, causal=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.causal = causal  # not in the book, as in v1

    def forward(self, x):
        keys = self.W_key(x)  # x @ W.T (+ b): (num_tokens, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        attn_scores = queries @ keys.T  # (num_tokens, num_tokens)
        if self.causal:
            future = torch.triu(torch.ones(x.shape[0], x.shape[0]), diagonal=1).bool()
            attn_scores = attn_scores.masked_fill(future, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        context_vec = attn_weights @ values  # (num_tokens, d_out)
        return context_vec


torch.manual_seed(seed_v2)
sa_v2 = SelfAttention_v2(d_in, d_out, qkv_bias, causal=causal)
print(sa_v2.W_query.weight.shape)  # nn.Linear stores (d_out, d_in)

# %% v2_queries -> v2.queries
with torch.no_grad():
    queries = sa_v2.W_query(inputs)  # (num_tokens, d_out)
    keys = sa_v2.W_key(inputs)
print(queries)

# %% v2_scores -> v2.scores
attn_scores = queries @ keys.T  # (num_tokens, num_tokens)
print(attn_scores)

# %% v2_masked if causal -> v2.masked_scores
attn_scores = attn_scores.masked_fill(future, -torch.inf)
print(attn_scores)

# %% v2_weights -> v2.weights
attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
print(attn_weights)

# %% v2_context -> v2.context
with torch.no_grad():
    print(sa_v2(inputs))

# %% exercise if not qkv_bias -> v1_from_v2.context
sa_v1_copy = SelfAttention_v1(d_in, d_out, causal=causal)
with torch.no_grad():
    sa_v1_copy.W_query.copy_(sa_v2.W_query.weight.T)  # (d_out, d_in) -> (d_in, d_out)
    sa_v1_copy.W_key.copy_(sa_v2.W_key.weight.T)
    sa_v1_copy.W_value.copy_(sa_v2.W_value.weight.T)
    print(sa_v1_copy(inputs))
    print(torch.allclose(sa_v1_copy(inputs), sa_v2(inputs), atol=1e-6))

# %% exercise_bias if qkv_bias
