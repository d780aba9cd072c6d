"""The hand-checked network of tests/test_tracer.py: every operator it logs is listed
there and its peak is worked out by hand."""
import torch
from torch import nn


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 8)
        self.bn = nn.BatchNorm1d(8)
        self.relu = nn.ReLU(inplace=True)
        self.drop = nn.Dropout(0.5)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        v = x.view(2, 8)  # a view of the (2, 2, 4) input
        h = self.drop(self.relu(self.bn(self.fc1(v))))
        return self.fc2(h + v)  # residual add


def tiny(batch=2):
    torch.manual_seed(0)
    x = torch.randn(batch, 2, 4)
    labels = torch.tensor([0, 1])

    def loss_fn(out, target):
        return nn.functional.cross_entropy(out, target)

    return Tiny(), (x,), labels, loss_fn


def raises(batch=2):
    raise ValueError("this factory always fails")
