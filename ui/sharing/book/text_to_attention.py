# %% setup
import re

# book: setup

# %% inputs
# book: inputs

# %% settings
sentences = 'I wonder what will come next!\nThis is a basic example paragraph.\nWhat comes next?'
d_model = 8
seed = 123
num_heads = 4
query_sentence = 0
key_sentence = 0
positional = True
causal = False

# %% tokenize
lines = [line for line in sentences.splitlines() if line.strip()][:8]  # at most 8 sentences


def tokenize(text):
    # lower-case words (letters and digits, with an inner apostrophe); punctuation is dropped
    return re.findall(r"[^\W_]+(?:'[^\W_]+)?", text.lower())


tokenized = [tokenize(line) for line in lines]
for number, words in enumerate(tokenized):
    print(number, words)

# %% vocab
all_words = sorted({word for words in tokenized for word in words})
vocab = {"<pad>": 0}
for word in all_words:
    vocab[word] = len(vocab)
print(len(vocab), vocab)

# %% ids -> ids, padding_mask
max_length = max(len(words) for words in tokenized)
ids = torch.zeros(len(tokenized), max_length, dtype=torch.long)  # (num_sentences, max_length), 0 = <pad>
padding_mask = torch.zeros(len(tokenized), max_length)  # 1 on a real token, 0 on padding
for row, words in enumerate(tokenized):
    ids[row, :len(words)] = torch.tensor([vocab[word] for word in words])
    padding_mask[row, :len(words)] = 1.0
print(ids)
print(padding_mask)

# %% model
# book: MultiHeadAttention
torch.manual_seed(seed)
token_embedding_layer = nn.Embedding(len(vocab), d_model)
mha = MultiHeadAttention(d_model, d_model, context_length=max_length, dropout=0.0, num_heads=num_heads,
                         qkv_bias=True)

# %% embeddings -> embeddings
with torch.no_grad():
    token_embeddings = token_embedding_layer(ids)  # (num_sentences, max_length, d_model)
print(token_embeddings)

# %% positions -> positions
position = torch.arange(max_length).unsqueeze(1)  # (max_length, 1)
two_i = torch.arange(0, d_model, 2)  # 0, 2, 4, ...: the even dimensions
angle = position / 10000 ** (two_i / d_model)  # (max_length, d_model // 2)
pos_embeddings = torch.zeros(max_length, d_model)
pos_embeddings[:, 0::2] = torch.sin(angle)  # even dimensions
pos_embeddings[:, 1::2] = torch.cos(angle)  # odd dimensions
print(pos_embeddings)

# %% inputs_plain if not positional -> inputs
x = token_embeddings  # (num_sentences, max_length, d_model)
print(x)

# %% inputs_positional if positional -> inputs
x = token_embeddings + pos_embeddings  # (num_sentences, max_length, d_model) + (max_length, d_model)
print(x)

# %% pick
num_queries = len(tokenized[query_sentence])
num_keys = len(tokenized[key_sentence])
x_q = x[query_sentence:query_sentence + 1, :num_queries]  # (1, num_queries, d_model): no padding
x_kv = x[key_sentence:key_sentence + 1, :num_keys]  # (1, num_keys, d_model)
print(x_q.shape, x_kv.shape)

# %% scores -> scores
with torch.no_grad():
    queries = mha.W_query(x_q)  # (b, num_queries, d_out)
    keys = mha.W_key(x_kv)  # (b, num_keys, d_out)
    values = mha.W_value(x_kv)

b = x_q.shape[0]
queries = queries.view(b, num_queries, num_heads, mha.head_dim)  # (b, num_queries, num_heads, head_dim)
keys = keys.view(b, num_keys, num_heads, mha.head_dim)
values = values.view(b, num_keys, num_heads, mha.head_dim)
queries = queries.transpose(1, 2)  # (b, num_heads, num_queries, head_dim)
keys = keys.transpose(1, 2)  # (b, num_heads, num_keys, head_dim)
values = values.transpose(1, 2)

attn_scores = queries @ keys.transpose(2, 3)  # (b, num_heads, num_queries, num_keys)
print(attn_scores)

# %% masked if causal and query_sentence == key_sentence -> masked_scores
mask_bool = mha.mask.bool()[:num_queries, :num_keys]  # True above the diagonal
attn_scores = attn_scores.masked_fill(mask_bool, -torch.inf)
print(attn_scores)

# %% cross_causal if causal and query_sentence != key_sentence

# %% weights -> weights
attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)  # (b, num_heads, num_queries, num_keys)
print(attn_weights)

# %% context -> context
context_vec = attn_weights @ values  # (b, num_heads, num_queries, head_dim)
print(context_vec)

# %% output -> output
context_vec = context_vec.transpose(1, 2)  # (b, num_queries, num_heads, head_dim)
context_vec = context_vec.contiguous().view(b, num_queries, mha.d_out)  # (b, num_queries, d_out)
with torch.no_grad():
    output = mha.out_proj(context_vec)  # (b, num_queries, d_out)
print(output)
