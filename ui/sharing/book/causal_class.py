# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
d_out = 2
# book: batch_settings, dropout_settings

# %% model
# book: CausalAttention
torch.manual_seed(seed)
ca = CausalAttention(d_in, d_out, context_length, dropout, qkv_bias, causal)
ca.train(training)  # training = False: eval mode, where dropout does nothing
# book: batch
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
