# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
query = min(1, inputs.shape[0] - 1)  # the index of the token that asks (0 is the first)
seed = 123
d_out = 2
causal = False
dropout = 0.0
training = True

# %% weights -> W_query, W_key, W_value
d_in = inputs.shape[1]
torch.manual_seed(seed)
W_query = nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)  # (d_in, d_out)
W_key = nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
W_value = nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
print(W_query)
print(W_key)
print(W_value)

# %% projections -> x_query, query, key_of_query, value_of_query
x_q = inputs[query]  # (d_in,)
query_q = x_q @ W_query  # (d_in,) @ (d_in, d_out) -> (d_out,)
key_q = x_q @ W_key
value_q = x_q @ W_value
print(x_q)
print(query_q)
print(key_q)
print(value_q)

# %% keys_values -> keys, values
keys = inputs @ W_key  # (num_tokens, d_in) @ (d_in, d_out) -> (num_tokens, d_out)
values = inputs @ W_value
print(keys)
print(values)

# %% own_score -> omega_qq
attn_score_qq = query_q.dot(keys[query])
print(attn_score_qq)

# %% scores -> scores
attn_scores_q = query_q @ keys.T  # (d_out,) @ (d_out, num_tokens) -> (num_tokens,)
print(attn_scores_q)

# %% masked if causal -> masked_scores
num_tokens = inputs.shape[0]
mask = torch.triu(torch.ones(num_tokens, num_tokens), diagonal=1)  # 1 above the diagonal: the future
attn_scores_q = attn_scores_q.masked_fill(mask[query].bool(), -torch.inf)
print(attn_scores_q)

# %% scaled -> scaled_scores
d_k = keys.shape[-1]
scaled_scores_q = attn_scores_q / d_k**0.5
print(scaled_scores_q)

# %% softmax -> weights
attn_weights_q = torch.softmax(scaled_scores_q, dim=-1)
print(attn_weights_q)

# %% dropout if dropout > 0 and training -> dropped_weights
torch.manual_seed(seed)
dropout_layer = nn.Dropout(dropout)  # a new module is in training mode
attn_weights_q = dropout_layer(attn_weights_q)
print(attn_weights_q)

# %% context -> context
context_vec_q = attn_weights_q @ values  # (num_tokens,) @ (num_tokens, d_out) -> (d_out,)
print(context_vec_q)
