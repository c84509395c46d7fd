# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
d_out = 2  # each head's width
num_heads = 2
# book: batch_settings, dropout_settings

# %% model
# book: MultiHeadAttentionWrapper
torch.manual_seed(seed)
mha = MultiHeadAttentionWrapper(d_in, d_out, context_length, dropout, num_heads, qkv_bias, causal)
mha.train(training)
# book: batch

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
# book: same_as_module
