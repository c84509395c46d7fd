# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
hidden = 4  # the size of the RNN's hidden state
query = inputs.shape[0] - 1  # the decoder step to look at (0 is the first)
seed = 123

# %% encoder -> hidden_states, final_state
scale = 0.6  # this page keeps the largest stretch of the recurrent matrix at 0.6
# book: rnn_encoder
x = inputs.unsqueeze(0).requires_grad_(True)  # (1, num_tokens, d_in): a batch of one sentence
hidden_states, _ = rnn(x)  # (1, num_tokens, hidden)
h_T = hidden_states[0, -1]  # (hidden,)
print(hidden_states[0].detach())  # (num_tokens, hidden): h_1 ... h_T
print(h_T.detach())

# %% influence -> influence_share
# book: influence
print(influence / influence.sum())

# %% layers
torch.manual_seed(seed + 1)
W_s = nn.Linear(hidden, hidden, bias=False)  # for the decoder state s_i
W_h = nn.Linear(hidden, hidden, bias=False)  # for the encoder state h_j
v = nn.Linear(hidden, 1, bias=False)  # turns each mix into one score

# %% scores -> scores
h = hidden_states[0].detach()  # (num_tokens, hidden): the encoder states
s = h  # the decoder states: in this toy, the encoder's own states
with torch.no_grad():
    # (num_tokens, 1, hidden) + (1, num_tokens, hidden) -> (num_tokens, num_tokens, hidden)
    mixed = torch.tanh(W_s(s).unsqueeze(1) + W_h(h).unsqueeze(0))
    attn_scores = v(mixed).squeeze(-1)  # (num_tokens, num_tokens, 1) -> (num_tokens, num_tokens)
print(attn_scores)

# %% weights -> weights
attn_weights = torch.softmax(attn_scores, dim=-1)  # each row sums to 1
print(attn_weights)
best = attn_weights[query].argmax().item()
print(f"Decoder step {query + 1} gives encoder state h_{best + 1} the most weight: "
      f"{attn_weights[query, best].item():.4f}")

# %% context -> context
context = attn_weights @ h  # (num_tokens, num_tokens) @ (num_tokens, hidden) -> (num_tokens, hidden)
print(context)
