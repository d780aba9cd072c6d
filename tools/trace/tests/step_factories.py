"""Factories for tests/test_training_step.py: a factory's own optimizer and step,
activation checkpointing, a model that prints, a model failing only in the resident-set
pass. Each is tiny_net's two linear layers or a variant, so counts stay checkable by hand."""
import os
import sys

import torch
import torch.utils.checkpoint
from torch import nn


class Mlp(nn.Module):
    """x [batch, 8] -> fc1 (8x8) -> relu -> fc2 (8x2): 64 + 8 + 16 + 2 = 90 parameters. The
    checkpointed variant re-runs relu and fc2 (relu, t, addmm) in the backward."""

    def __init__(self, checkpointed=False):
        super().__init__()
        self.fc1 = nn.Linear(8, 8)
        self.fc2 = nn.Linear(8, 2)
        self.checkpointed = checkpointed

    def head(self, h):
        return self.fc2(torch.relu(h))

    def forward(self, x):
        h = self.fc1(x)
        return torch.utils.checkpoint.checkpoint(self.head, h) if self.checkpointed else self.head(h)


def _data(batch):
    generator = torch.Generator().manual_seed(0)
    return (torch.randn(batch, 8, generator=generator),), torch.zeros(batch, dtype=torch.long)


def plain(batch=2):
    inputs, labels = _data(batch)
    return Mlp(), inputs, labels, nn.functional.cross_entropy


def own_adamw(batch=2):
    model = Mlp()
    inputs, labels = _data(batch)
    return model, inputs, labels, nn.functional.cross_entropy, torch.optim.AdamW(model.parameters(), lr=1e-3)


def own_step(batch=2):
    """The user's step: gradient clipping, then SGD with momentum; given as a dict."""
    model = Mlp()
    inputs, labels = _data(batch)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    def step():
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

    return {"model": model, "inputs": inputs, "labels": labels, "loss_fn": nn.functional.cross_entropy,
            "optimizer": optimizer, "step": step}


def checkpointed(batch=2):
    inputs, labels = _data(batch)
    return Mlp(checkpointed=True), inputs, labels, nn.functional.cross_entropy


class Chatty(Mlp):
    def forward(self, x):
        print("forward pass: {", flush=True)  # looks like JSON to a parser of stdout
        print("chatty model on stderr", file=sys.stderr, flush=True)
        return super().forward(x)


def chatty(batch=2):
    print('{"not": "the tracer\'s"}')
    inputs, labels = _data(batch)
    return Chatty(), inputs, labels, nn.functional.cross_entropy


class FailsUnderTheProbe(Mlp):
    def forward(self, x):
        if os.environ.get("MALLOC_ARENA_MAX") == "1":  # only the resident-set pass sets it
            raise RuntimeError("out of luck in the resident-set pass")
        return super().forward(x)


def fails_in_rss_pass(batch=2):
    inputs, labels = _data(batch)
    return FailsUnderTheProbe(), inputs, labels, nn.functional.cross_entropy


def returns_a_string_optimizer(batch=2):
    inputs, labels = _data(batch)
    return Mlp(), inputs, labels, nn.functional.cross_entropy, "adam"
