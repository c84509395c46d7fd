# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
d_out = inputs.shape[1]  # the page starts at d_in
num_heads = 1  # must divide d_out
# book: batch_settings

# %% model
# book: MultiHeadAttention
torch.manual_seed(seed)
mha = MultiHeadAttention(d_in, d_out, context_length, 0.0, num_heads, qkv_bias, causal)  # dropout 0.0
mha.eval()
# book: batch

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
