"""A GPT-style language model for `memsim trace tools/trace/examples/gpt.py:gpt` (docs/tracing.md,
"A transformer"), written for this project: token and learned position embeddings, then
per block layer norm, causal self-attention (one QKV projection, scaled dot product, a
causal mask, softmax, the output projection) and a residual, layer norm, an MLP of 4x
the width with GELU and a residual; a final layer norm and logits through the output
layer tied to the token embedding; cross-entropy over every position. No dropout (every
pass the same without it; a dropout layer adds a mask per use). The factory returns its
own AdamW, weight decay on the matrices only, as GPT training recipes do.

Parameters: V·h + s·h + L·(12h² + 13h) + 2h (V vocabulary, s positions, L blocks, h
width): at the defaults (V 512, s 64, L 2, h 64) 136,960, 547,840 bytes in float32.
"""
import math

import torch
from torch import nn
from torch.nn import functional as F

VOCABULARY = 512


class CausalSelfAttention(nn.Module):
    def __init__(self, width, heads, positions):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)
        mask = torch.tril(torch.ones(positions, positions, dtype=torch.bool))
        self.register_buffer("causal", mask.view(1, 1, positions, positions), persistent=False)

    def forward(self, x):
        batch, length, width = x.shape
        head = width // self.heads
        q, k, v = self.qkv(x).split(width, dim=2)
        q, k, v = (t.view(batch, length, self.heads, head).transpose(1, 2) for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(head)
        scores = scores.masked_fill(~self.causal[:, :, :length, :length], float("-inf"))
        y = F.softmax(scores, dim=-1) @ v
        return self.out(y.transpose(1, 2).contiguous().view(batch, length, width))


class Block(nn.Module):
    def __init__(self, width, heads, positions):
        super().__init__()
        self.norm1 = nn.LayerNorm(width)
        self.attention = CausalSelfAttention(width, heads, positions)
        self.norm2 = nn.LayerNorm(width)
        self.grow = nn.Linear(width, 4 * width)
        self.shrink = nn.Linear(4 * width, width)

    def forward(self, x):
        x = x + self.attention(self.norm1(x))
        return x + self.shrink(F.gelu(self.grow(self.norm2(x))))


class Gpt(nn.Module):
    def __init__(self, vocabulary=VOCABULARY, positions=64, layers=2, width=64, heads=4):
        super().__init__()
        self.tokens = nn.Embedding(vocabulary, width)
        self.positions = nn.Embedding(positions, width)
        self.blocks = nn.ModuleList(Block(width, heads, positions) for _ in range(layers))
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocabulary, bias=False)
        self.head.weight = self.tokens.weight  # tied: one matrix, used twice

    def forward(self, tokens):
        length = tokens.shape[1]
        x = self.tokens(tokens) + self.positions(torch.arange(length, device=tokens.device))
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def _adamw(model, lr=3e-4, weight_decay=0.1):
    """AdamW with weight decay on the matrices, none on biases, norms and embeddings' ... of rank 1."""
    decayed = [p for p in model.parameters() if p.dim() >= 2]
    kept = [p for p in model.parameters() if p.dim() < 2]
    return torch.optim.AdamW([{"params": decayed, "weight_decay": weight_decay}, {"params": kept, "weight_decay": 0.0}],
                             lr=lr, betas=(0.9, 0.95))


def gpt(batch=2, input_shape=(64,)):
    """Next-token prediction over input_shape[0] tokens (at most 64 positions)."""
    torch.manual_seed(0)
    length = input_shape[0]
    model = Gpt(positions=max(64, length))
    generator = torch.Generator().manual_seed(0)
    tokens = torch.randint(0, VOCABULARY, (batch, length + 1), generator=generator)
    inputs, labels = tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous()

    def loss_fn(logits, target):
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))

    return model, (inputs,), labels, loss_fn, _adamw(model)
