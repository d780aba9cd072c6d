"""A small model for the trace tests: `memsim trace tiny_factory.py:factory` and
memsim.trace(*factory()) must give the same log (times aside)."""
import torch


class Tiny(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.fc = torch.nn.Linear(4 * 8 * 8, 5)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).flatten(1))


def factory(batch=2):
    torch.manual_seed(0)
    model = Tiny()
    inputs = torch.randn(batch, 3, 8, 8)
    labels = torch.randint(0, 5, (batch,))
    return model, inputs, labels, torch.nn.functional.cross_entropy
