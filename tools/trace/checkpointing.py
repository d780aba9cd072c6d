"""torch.utils.checkpoint seen by the recorder: the operators its backward re-runs are
recorded with RECOMPUTES, the index of the forward operator each repeats, so that memsim
counts them as the model's own recomputation (docs/tracing.md, "Activation
checkpointing").

checkpoint() looks CheckpointFunction and _checkpoint_without_reentrant up in its module
when called, so while recording both are replaced by versions that wrap the checkpointed
function: its first call (the forward) and its second (the re-run) run inside one region
of the recorder, which pairs the re-run's operators with the forward's in order.
"""
import contextlib

import torch.utils.checkpoint as checkpoint_module


@contextlib.contextmanager
def recording_checkpoints(recorder):
    reentrant = checkpoint_module.CheckpointFunction
    without_reentrant = getattr(checkpoint_module, "_checkpoint_without_reentrant", None)
    regions = [0]

    def wrap(function):
        region = regions[0]
        regions[0] += 1
        calls = [0]

        def run(*args, **kwargs):
            first = calls[0] == 0
            calls[0] += 1
            saved = recorder.enter_region(region, first)
            try:
                return function(*args, **kwargs)
            finally:
                recorder.exit_region(saved)

        return run

    class Reentrant:
        @staticmethod
        def apply(function, preserve, *args):
            return reentrant.apply(wrap(function), preserve, *args)

    checkpoint_module.CheckpointFunction = Reentrant
    if without_reentrant is not None:
        checkpoint_module._checkpoint_without_reentrant = \
            lambda function, preserve, *args, **kwargs: without_reentrant(wrap(function), preserve, *args, **kwargs)
    try:
        yield
    finally:
        checkpoint_module.CheckpointFunction = reentrant
        if without_reentrant is not None:
            checkpoint_module._checkpoint_without_reentrant = without_reentrant
