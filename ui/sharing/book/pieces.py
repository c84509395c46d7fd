# The book's code that more than one page's notebook needs, each piece written once. A page's book file names the
# pieces a cell needs on a line of its own, "# book: <piece>, <piece>"; ui/sharing/book_files.py puts each piece's
# code there (a piece a page already has is not written again), so that every notebook stays whole on its own.
# Read as text, never imported: a piece uses the names its pages' cells define (inputs, the settings, mha, output).
# Each class is the book's lines in the book's own layout (MultiHeadAttention's mask buffer over five lines, where
# CausalAttention's is one); what the app adds, the causal switch, is set first in each __init__, so that the book's
# lines run unbroken after it and a reader can hold them against the book's listing.

# %% setup
import torch
from torch import nn

# %% inputs
tokens = ["Your", "journey", "starts", "with", "one", "step"]
inputs = torch.tensor([
    [0.43, 0.15, 0.89],  # 'Your'
    [0.55, 0.87, 0.66],  # 'journey'
    [0.57, 0.85, 0.64],  # 'starts'
    [0.22, 0.58, 0.33],  # 'with'
    [0.77, 0.25, 0.10],  # 'one'
    [0.05, 0.80, 0.55],  # 'step'
])  # (num_tokens, d_in)

# %% batch_settings
seed = 123
qkv_bias = False
batch = 2  # how many copies of the inputs go in one batch
causal = True
context_length = inputs.shape[0]  # the mask buffer's size: at least the number of tokens
d_in = inputs.shape[1]

# %% dropout_settings
dropout = 0.0
training = True


# %% hide_future
def hide_future(attn_scores):
    # not in the book: the page's causal switch on the classes of 3.4 hides the tokens after each query (3.5)
    future = torch.triu(torch.ones(attn_scores.shape[-2], attn_scores.shape[-1]), diagonal=1).bool()
    return attn_scores.masked_fill(future, -torch.inf)


# %% SelfAttention_v1 needs hide_future
class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out, causal=False):
        super().__init__()
        self.causal = causal  # not in the book: True hides the tokens after each query (3.5)
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        keys = x @ self.W_key  # (num_tokens, d_in) @ (d_in, d_out) -> (num_tokens, d_out)
        queries = x @ self.W_query
        values = x @ self.W_value
        attn_scores = queries @ keys.T  # omega, (num_tokens, num_tokens)
        attn_scores = hide_future(attn_scores) if self.causal else attn_scores
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        context_vec = attn_weights @ values  # (num_tokens, d_out)
        return context_vec


# %% SelfAttention_v2 needs hide_future
class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False, causal=False):
        super().__init__()
        self.causal = causal  # not in the book, as in v1
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        keys = self.W_key(x)  # x @ W.T (+ b): (num_tokens, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        attn_scores = queries @ keys.T  # (num_tokens, num_tokens)
        attn_scores = hide_future(attn_scores) if self.causal else attn_scores
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        context_vec = attn_weights @ values  # (num_tokens, d_out)
        return context_vec


# %% CausalAttention
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False, causal=True):
        super().__init__()
        self.causal = causal  # not in the book: False leaves the mask out
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape  # (b, num_tokens, d_in)
        keys = self.W_key(x)  # (b, num_tokens, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        attn_scores = queries @ keys.transpose(1, 2)  # (b, num_tokens, num_tokens)
        if self.causal:
            attn_scores = attn_scores.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = attn_weights @ values  # (b, num_tokens, d_out)
        return context_vec


# %% MultiHeadAttentionWrapper needs CausalAttention
class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False, causal=True):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias, causal) for _ in range(num_heads)]
        )

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=-1)  # (b, num_tokens, num_heads * d_out)


# %% MultiHeadAttention
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False, causal=True):
        super().__init__()
        self.causal = causal  # not in the book, as in CausalAttention
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads  # each head's width
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)  # mixes the heads' outputs
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(  # as in CausalAttention: the future's mask, made once for context_length tokens
            "mask",
            torch.triu(torch.ones(context_length, context_length),
                       diagonal=1)
        )

    def forward(self, x):
        b, num_tokens, d_in = x.shape  # (b, num_tokens, d_in)
        keys = self.W_key(x)  # (b, num_tokens, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)  # (b, num_tokens, num_heads, head_dim)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
        keys = keys.transpose(1, 2)  # (b, num_heads, num_tokens, head_dim)
        queries = queries.transpose(1, 2)
        values = values.transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)  # (b, num_heads, num_tokens, num_tokens)
        if self.causal:
            attn_scores = attn_scores.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)  # (b, num_tokens, num_heads, head_dim)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)  # (b, num_tokens, d_out)
        context_vec = self.out_proj(context_vec)
        return context_vec


# %% batch
x = torch.stack([inputs] * batch, dim=0)  # (batch, num_tokens, d_in)
print(x.shape)

# %% same_as_module
torch.manual_seed(123)  # the same dropout draws as the steps above
with torch.no_grad():
    context_vecs = mha(x)
print(torch.allclose(context_vecs, output))

# %% rnn_encoder
torch.manual_seed(seed)
rnn = nn.RNN(inputs.shape[1], hidden, nonlinearity="tanh", batch_first=True)
with torch.no_grad():
    W_h = rnn.weight_hh_l0  # (hidden, hidden): the recurrent matrix
    W_h.mul_(scale / torch.linalg.matrix_norm(W_h, ord=2))  # its largest singular value is now `scale`

# %% influence
influence = torch.zeros(inputs.shape[0])
for k in range(hidden):  # one backward pass for each unit of h_T
    (grad,) = torch.autograd.grad(h_T[k], x, retain_graph=True)  # (1, num_tokens, d_in)
    influence += grad[0].pow(2).sum(dim=-1)  # (num_tokens,)
influence = influence.sqrt()  # the size of d h_T / d x_t for each token t
