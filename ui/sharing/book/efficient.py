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
d_out = inputs.shape[1]  # the page starts at d_in
num_heads = 1  # must divide d_out
seed = 123
qkv_bias = False
batch = 2  # how many copies of the inputs go in one batch
causal = True
context_length = inputs.shape[0]
d_in = inputs.shape[1]


# %% model
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False, causal=True):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads  # each head's width
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)  # mixes the heads' outputs
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))
        self.causal = causal  # not in the book: False leaves the mask out

    def forward(self, x):
        b, num_tokens, d_in = x.shape  # (b, num_tokens, d_in)
        keys = self.W_key(x)  # (b, num_tokens, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)  # (b, num_tokens, num_heads, head_dim)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
        keys = keys.transpose(1, 2)  # (b, num_heads, num_tokens, head_dim)
        queries = queries.transpose(1, 2)
        values = values.transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)  # (b, num_heads, num_tokens, num_tokens)
        if self.causal:
            attn_scores = attn_scores.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)  # (b, num_tokens, num_heads, head_dim)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)  # (b, num_tokens, d_out)
        context_vec = self.out_proj(context_vec)
        return context_vec


torch.manual_seed(seed)
mha = MultiHeadAttention(d_in, d_out, context_length, 0.0, num_heads, qkv_bias, causal)  # dropout 0.0
mha.eval()
x = torch.stack([inputs] * batch, dim=0)  # (batch, num_tokens, d_in)
print(x.shape)

# %% book -> book.output
with torch.no_grad():
    context_vecs = mha(x)  # (b, num_tokens, d_out)
print(context_vecs)

# %% weights -> weights
b, num_tokens, _ = x.shape
head_dim = d_out // num_heads
with torch.no_grad():
    # (b, num_tokens, d_out) -> (b, num_tokens, num_heads, head_dim) -> (b, num_heads, num_tokens, head_dim)
    queries = mha.W_query(x).view(b, num_tokens, num_heads, head_dim).transpose(1, 2)
    keys = mha.W_key(x).view(b, num_tokens, num_heads, head_dim).transpose(1, 2)
    values = mha.W_value(x).view(b, num_tokens, num_heads, head_dim).transpose(1, 2)
attn_scores = queries @ keys.transpose(2, 3)  # (b, num_heads, num_tokens, num_tokens)
if causal:
    attn_scores = attn_scores.masked_fill(mha.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
attn_weights = torch.softmax(attn_scores / head_dim**0.5, dim=-1)
print(attn_weights)

# %% sdpa
qkv = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)  # one layer for the three projections
with torch.no_grad():
    qkv.weight.copy_(torch.cat([mha.W_query.weight, mha.W_key.weight, mha.W_value.weight]))  # (3 * d_out, d_in)
    if qkv_bias:
        qkv.bias.copy_(torch.cat([mha.W_query.bias, mha.W_key.bias, mha.W_value.bias]))
    # (b, num_tokens, 3 * d_out) -> (b, num_tokens, 3, num_heads, head_dim) -> (3, b, num_heads, num_tokens, head_dim)
    q, k, v = qkv(x).view(b, num_tokens, 3, num_heads, head_dim).permute(2, 0, 3, 1, 4)
    fast = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)  # (b, num_heads, num_tokens, head_dim)
    fast = fast.transpose(1, 2).contiguous().view(b, num_tokens, d_out)  # (b, num_tokens, d_out)
    fast = mha.out_proj(fast)
print(f"largest difference from the book's output: {(fast - context_vecs).abs().max():.2e}")
print("the same within 1e-5:", torch.allclose(fast, context_vecs, atol=1e-5))
