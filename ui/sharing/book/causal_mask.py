# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
seed = 789
d_out = 2
qkv_bias = False
causal = True

# %% model
# book: SelfAttention_v2
torch.manual_seed(seed)
sa_v2 = SelfAttention_v2(inputs.shape[1], d_out, qkv_bias)

# %% projections -> queries, keys
with torch.no_grad():
    queries = sa_v2.W_query(inputs)  # (num_tokens, d_out)
    keys = sa_v2.W_key(inputs)
    values = sa_v2.W_value(inputs)
print(queries)
print(keys)

# %% scores -> scores
attn_scores = queries @ keys.T  # (num_tokens, d_out) @ (d_out, num_tokens) -> (num_tokens, num_tokens)
print(attn_scores)

# %% weights -> weights
d_k = keys.shape[-1]
attn_weights = torch.softmax(attn_scores / d_k**0.5, dim=-1)
print(attn_weights)

# %% context_unmasked if not causal -> context
context_vecs = attn_weights @ values
print(context_vecs)

# %% way1_mask if causal -> mask_simple
context_length = attn_scores.shape[0]
mask_simple = torch.tril(torch.ones(context_length, context_length))
print(mask_simple)

# %% way1_zero if causal -> masked_simple
masked_simple = attn_weights * mask_simple
print(masked_simple)

# %% way1_renormalise if causal -> masked_simple_norm
row_sums = masked_simple.sum(dim=-1, keepdim=True)  # (num_tokens, 1)
masked_simple_norm = masked_simple / row_sums
print(masked_simple_norm)

# %% way2_scores if causal -> masked_scores
mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)
masked = attn_scores.masked_fill(mask.bool(), -torch.inf)
print(masked)

# %% way2_weights if causal -> masked_weights
attn_weights = torch.softmax(masked / d_k**0.5, dim=-1)
print(attn_weights)

# %% same if causal
print(torch.allclose(masked_simple_norm, attn_weights, atol=1e-6))

# %% context if causal -> context
context_vecs = attn_weights @ values
print(context_vecs)
