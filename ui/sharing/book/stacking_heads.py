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
d_out = 2  # each head's width
num_heads = 2
seed = 123
qkv_bias = False
batch = 2  # how many copies of the inputs go in one batch
causal = True
dropout = 0.0
training = True
context_length = inputs.shape[0]
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


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False, causal=True):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias, causal) for _ in range(num_heads)]
        )

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=-1)  # (b, num_tokens, num_heads * d_out)


torch.manual_seed(seed)
mha = MultiHeadAttentionWrapper(d_in, d_out, context_length, dropout, num_heads, qkv_bias, causal)
mha.train(training)
x = torch.stack([inputs] * batch, dim=0)  # (batch, num_tokens, d_in)
print(x.shape)

# %% queries -> queries
with torch.no_grad():
    queries = [head.W_query(x) for head in mha.heads]  # one (b, num_tokens, d_out) per head
    keys = [head.W_key(x) for head in mha.heads]
    values = [head.W_value(x) for head in mha.heads]
print(torch.stack(queries, dim=1))  # (b, num_heads, num_tokens, d_out)

# %% scores -> scores
# each head: (b, num_tokens, d_out) @ (b, d_out, num_tokens) -> (b, num_tokens, num_tokens)
attn_scores = [queries[h] @ keys[h].transpose(1, 2) for h in range(num_heads)]
print(torch.stack(attn_scores, dim=1))  # (b, num_heads, num_tokens, num_tokens)

# %% masked if causal -> masked_scores
num_tokens = x.shape[1]
mask = mha.heads[0].mask.bool()[:num_tokens, :num_tokens]  # every head hides the same keys
attn_scores = [scores.masked_fill(mask, -torch.inf) for scores in attn_scores]
print(torch.stack(attn_scores, dim=1))

# %% weights -> weights
d_k = d_out  # each head's keys are d_out wide
attn_weights = [torch.softmax(attn_scores[h] / d_k**0.5, dim=-1) for h in range(num_heads)]
print(torch.stack(attn_weights, dim=1))  # (b, num_heads, num_tokens, num_tokens)

# %% dropped if dropout != 0 and training -> dropped_weights
torch.manual_seed(123)  # the app draws the dropout masks after this seed, head after head
attn_weights = [mha.heads[h].dropout(attn_weights[h]) for h in range(num_heads)]
print(torch.stack(attn_weights, dim=1))

# %% context -> context
context = [attn_weights[h] @ values[h] for h in range(num_heads)]  # one (b, num_tokens, d_out) per head
print(torch.stack(context, dim=1))  # (b, num_heads, num_tokens, d_out)

# %% output -> output
output = torch.cat(context, dim=-1)  # (b, num_tokens, num_heads * d_out)
print(output)
print(output.shape)

# %% module
torch.manual_seed(123)
with torch.no_grad():
    context_vecs = mha(x)
print(torch.allclose(context_vecs, output))
