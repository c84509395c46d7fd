# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
d_out = 2
num_heads = 2  # must divide d_out
# book: batch_settings, dropout_settings

# %% model
# book: MultiHeadAttention
torch.manual_seed(seed)
mha = MultiHeadAttention(d_in, d_out, context_length, dropout, num_heads, qkv_bias, causal)
mha.train(training)
# book: batch

# %% split -> queries_split
b, num_tokens, _ = x.shape
head_dim = d_out // num_heads
with torch.no_grad():
    keys = mha.W_key(x)  # (b, num_tokens, d_out)
    queries = mha.W_query(x)
    values = mha.W_value(x)
keys = keys.view(b, num_tokens, num_heads, head_dim)  # (b, num_tokens, num_heads, head_dim)
values = values.view(b, num_tokens, num_heads, head_dim)
queries = queries.view(b, num_tokens, num_heads, head_dim)
print(queries)

# %% by_head -> queries_by_head
keys = keys.transpose(1, 2)  # (b, num_heads, num_tokens, head_dim)
queries = queries.transpose(1, 2)
values = values.transpose(1, 2)
print(queries)

# %% example_a -> batched_product.a
a = torch.tensor([[[[0.2745, 0.6584, 0.2775, 0.8573],
                    [0.8993, 0.0390, 0.9268, 0.7388],
                    [0.7179, 0.7058, 0.9156, 0.4340]],

                   [[0.0772, 0.3565, 0.1479, 0.5331],
                    [0.4066, 0.2318, 0.4545, 0.9737],
                    [0.4606, 0.5159, 0.4220, 0.5786]]]])  # (b, num_heads, num_tokens, head_dim) = (1, 2, 3, 4)
print(a)

# %% example_product -> batched_product.product
product = a @ a.transpose(2, 3)  # (1, 2, 3, 4) @ (1, 2, 4, 3) -> (1, 2, 3, 3)
print(product)

# %% example_by_head
first_head = a[0, 0, :, :]  # (3, 4)
second_head = a[0, 1, :, :]
print(torch.allclose(product[0, 0], first_head @ first_head.T))
print(torch.allclose(product[0, 1], second_head @ second_head.T))

# %% scores -> scores
attn_scores = queries @ keys.transpose(2, 3)  # (b, num_heads, num_tokens, num_tokens)
print(attn_scores)

# %% masked if causal -> masked_scores
mask_bool = mha.mask.bool()[:num_tokens, :num_tokens]  # True above the diagonal: the future
attn_scores = attn_scores.masked_fill(mask_bool, -torch.inf)  # one mask serves every head
print(attn_scores)

# %% weights -> weights
attn_weights = torch.softmax(attn_scores / head_dim**0.5, dim=-1)  # (b, num_heads, num_tokens, num_tokens)
print(attn_weights)

# %% dropped if dropout != 0 and training -> dropped_weights
torch.manual_seed(123)  # the app draws the dropout mask after this seed
attn_weights = mha.dropout(attn_weights)
print(attn_weights)

# %% context -> context
context_vec = attn_weights @ values  # (b, num_heads, num_tokens, head_dim)
print(context_vec)

# %% by_token -> context_by_token
context_vec = context_vec.transpose(1, 2)  # (b, num_tokens, num_heads, head_dim)
print(context_vec)

# %% merged -> context_merged
context_vec = context_vec.contiguous().view(b, num_tokens, d_out)  # (b, num_tokens, d_out)
print(context_vec)

# %% output -> output
with torch.no_grad():
    output = mha.out_proj(context_vec)  # (b, num_tokens, d_out)
print(output)
print(output.shape)

# %% module
# book: same_as_module
