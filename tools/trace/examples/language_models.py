"""Example factories for `memsim trace FILE.py:factory` (docs/tracing.md).

A factory returns (model, inputs, labels, loss_fn); the tracer runs
loss_fn(model(*inputs), labels), backward and the optimizer step. It may take any of
the keyword arguments batch, input_shape and device.
"""
import torch
from torch import nn

VOCABULARY = 1000


class LstmLanguageModel(nn.Module):
    """Embedding -> 2-layer LSTM -> vocabulary logits at every position."""

    def __init__(self, vocabulary=VOCABULARY, embedding=128, hidden=256, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocabulary, embedding)
        self.lstm = nn.LSTM(embedding, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Linear(hidden, vocabulary)

    def forward(self, tokens):
        hidden, _ = self.lstm(self.embed(tokens))
        return self.head(hidden)


class TransformerClassifier(nn.Module):
    """Embedding -> 2 transformer encoder layers -> mean over positions -> classes."""

    def __init__(self, vocabulary=VOCABULARY, width=128, heads=4, layers=2, classes=10):
        super().__init__()
        self.embed = nn.Embedding(vocabulary, width)
        layer = nn.TransformerEncoderLayer(width, heads, dim_feedforward=4 * width, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(width, classes)

    def forward(self, tokens):
        return self.head(self.encoder(self.embed(tokens)).mean(dim=1))


def _tokens(batch, length, generator):
    return torch.randint(0, VOCABULARY, (batch, length), generator=generator)


def lstm_lm(batch=8, input_shape=(64,)):
    """Next-token prediction over sequences of input_shape[0] tokens."""
    generator = torch.Generator().manual_seed(0)
    tokens = _tokens(batch, input_shape[0], generator)
    labels = _tokens(batch, input_shape[0], generator)

    def loss_fn(logits, target):
        return nn.functional.cross_entropy(logits.reshape(-1, VOCABULARY), target.reshape(-1))

    return LstmLanguageModel(), (tokens,), labels, loss_fn


def transformer_encoder(batch=8, input_shape=(64,)):
    """Sequence classification over input_shape[0] tokens into 10 classes."""
    generator = torch.Generator().manual_seed(0)
    tokens = _tokens(batch, input_shape[0], generator)
    labels = torch.randint(0, 10, (batch,), generator=generator)
    return TransformerClassifier(), (tokens,), labels, nn.functional.cross_entropy
