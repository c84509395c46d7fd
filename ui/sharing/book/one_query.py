# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
query = min(1, inputs.shape[0] - 1)  # the query token's index (0 is the first token)
normalisation = "softmax"  # "sum", "softmax_naive" or "softmax"
causal = False
seed = 123  # the dropout seed
dropout = 0.0
training = True

# %% query -> inputs, query
x_q = inputs[query]  # (d_in,): the query is the token's own embedding
print(inputs)
print(x_q)

# %% scores -> scores
attn_scores = torch.empty(inputs.shape[0])
for i, x_i in enumerate(inputs):
    attn_scores[i] = torch.dot(x_i, x_q)
print(attn_scores)
print(torch.allclose(attn_scores, inputs @ x_q))  # one matrix product gives the same scores

# %% naive
def softmax_naive(x):
    return torch.exp(x) / torch.exp(x).sum(dim=0)


# %% normalise if not causal
for_sum = for_exp = attn_scores  # no token is hidden

# %% masked if causal -> masked_scores
hidden = torch.arange(inputs.shape[0]) > query  # True for the tokens after the query
fill = 0.0 if normalisation == "sum" else -torch.inf  # 0 adds nothing to a sum, and exp(-inf) = 0
masked_scores = attn_scores.masked_fill(hidden, fill)
print(masked_scores)

# %% normalise_masked if causal
for_sum = attn_scores.masked_fill(hidden, 0.0)
for_exp = attn_scores.masked_fill(hidden, -torch.inf)

# %% weights -> weights_sum, weights_softmax_naive, weights_softmax
weights_sum = for_sum / for_sum.sum()
weights_softmax_naive = softmax_naive(for_exp)
weights_softmax = torch.softmax(for_exp, dim=0)
print(weights_sum)
print(weights_softmax_naive)
print(weights_softmax)

# %% chosen -> weights
attn_weights = {"sum": weights_sum, "softmax_naive": weights_softmax_naive, "softmax": weights_softmax}[normalisation]
print(attn_weights)
print(f"The weights sum to {attn_weights.sum().item():.4f}")

# %% dropped if dropout != 0 and training -> dropped_weights
torch.manual_seed(seed)
drop = nn.Dropout(dropout)  # a new module is in training mode
attn_weights = drop(attn_weights)
print(attn_weights)

# %% context -> context
context_vec = torch.zeros(x_q.shape)
for i, x_i in enumerate(inputs):
    context_vec += attn_weights[i] * x_i
print(context_vec)
print(torch.allclose(context_vec, attn_weights @ inputs))  # the same as one matrix product
