# %% setup
# book: setup

# %% inputs
# book: inputs

# %% settings
hidden = 4  # the size of the RNN's hidden state
scale = 0.6  # the largest stretch of the recurrent matrix W_h
seed = 123

# %% encoder
# book: rnn_encoder

# %% read -> inputs, hidden_states
x = inputs.unsqueeze(0).requires_grad_(True)  # (1, num_tokens, d_in): a batch of one sentence
hidden_states, _ = rnn(x)  # (1, num_tokens, hidden): h_t after each token
print(inputs)
print(hidden_states[0].detach())  # (num_tokens, hidden)

# %% final -> final_state
h_T = hidden_states[0, -1]  # (hidden,)
print(h_T.detach())

# %% influence -> influence
# book: influence
print(influence)

# %% share -> influence_share
influence_share = influence / influence.sum()
print(influence_share)

# %% attention -> attention.weights
attn_scores = inputs @ inputs.T  # (num_tokens, d_in) @ (d_in, num_tokens) -> (num_tokens, num_tokens)
attn_weights = torch.softmax(attn_scores, dim=-1)
print(attn_weights)
