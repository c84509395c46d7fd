# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
normalisation = "softmax"  # "sum", "softmax_naive" or "softmax"
causal = False
seed = 123  # the dropout seed
dropout = 0.0
training = True

# %% loop -> inputs
print(inputs)
loop_scores = torch.empty(inputs.shape[0], inputs.shape[0])  # (num_tokens, num_tokens)
for i, x_i in enumerate(inputs):
    for j, x_j in enumerate(inputs):
        loop_scores[i, j] = torch.dot(x_i, x_j)

# %% scores -> scores
attn_scores = inputs @ inputs.T  # (num_tokens, d_in) @ (d_in, num_tokens) -> (num_tokens, num_tokens)
print(attn_scores)
print(torch.allclose(attn_scores, loop_scores))  # the same scores as the double loop

# %% masked if causal -> masked_scores
context_length = attn_scores.shape[0]
mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)  # 1 above the diagonal
fill = 0.0 if normalisation == "sum" else -torch.inf  # 0 adds nothing to a sum, and exp(-inf) = 0
attn_scores = attn_scores.masked_fill(mask.bool(), fill)
print(attn_scores)

# %% weights_sum if normalisation == "sum" -> weights
attn_weights = attn_scores / attn_scores.sum(dim=-1, keepdim=True)  # (num_tokens, 1) row sums
print(attn_weights)

# %% weights_naive if normalisation == "softmax_naive" -> weights
exp_scores = torch.exp(attn_scores)
attn_weights = exp_scores / exp_scores.sum(dim=-1, keepdim=True)  # (num_tokens, 1) row sums
print(attn_weights)

# %% weights_softmax if normalisation == "softmax" -> weights
attn_weights = torch.softmax(attn_scores, dim=-1)
print(attn_weights)

# %% rows
print("Row sums:", [round(v, 4) for v in attn_weights.sum(dim=-1).tolist()])

# %% dropped if dropout != 0 and training -> dropped_weights
torch.manual_seed(seed)
drop = nn.Dropout(dropout)  # a new module is in training mode
attn_weights = drop(attn_weights)
print(attn_weights)

# %% context -> context
all_context_vecs = attn_weights @ inputs  # (num_tokens, num_tokens) @ (num_tokens, d_in) -> (num_tokens, d_in)
print(all_context_vecs)
