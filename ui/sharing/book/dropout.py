# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
dropout = 0.5
seed = 123  # the seed before each dropout draw
training = True
causal = True

# %% model
# book: SelfAttention_v2
torch.manual_seed(789)
sa_v2 = SelfAttention_v2(inputs.shape[1], 2)
with torch.no_grad():
    queries = sa_v2.W_query(inputs)  # (num_tokens, 2)
    keys = sa_v2.W_key(inputs)
attn_scores = queries @ keys.T  # (num_tokens, num_tokens)

# %% mask if causal
context_length = attn_scores.shape[0]
mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)
attn_scores = attn_scores.masked_fill(mask.bool(), -torch.inf)

# %% weights -> weights
attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
print(attn_weights)

# %% example -> example
dropout_layer = nn.Dropout(dropout)
dropout_layer.train(training)  # in eval mode (training = False) dropout does nothing
example = torch.ones(len(inputs), len(inputs))  # (num_tokens, num_tokens)
print(example)

# %% dropped_example -> dropped_example, keep
torch.manual_seed(seed)
dropped_example = dropout_layer(example)
print(dropped_example)
keep = (dropped_example != 0).float()  # 1 where a cell survived
print(keep)
print(f"kept {keep.mean().item():.2f} of the cells")

# %% dropped_weights -> dropped_weights
torch.manual_seed(seed)
print(dropout_layer(attn_weights))
