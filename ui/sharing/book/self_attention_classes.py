# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
seed_v1 = 123
seed_v2 = 789
d_out = 2
qkv_bias = False
causal = False
d_in = inputs.shape[1]

# %% v1_model
# book: SelfAttention_v1
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
# book: SelfAttention_v2
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
attn_scores = hide_future(attn_scores)  # as the classes do when causal: the same mask as v1's
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
