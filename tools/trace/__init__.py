"""Trace one PyTorch training iteration into a DTR operator log (docs/tracing.md).

Run as `python3 -m tools.trace MODEL --out FILE` from the repository root, or through
`memsim trace`. The log follows the published DTR log format
(../shared/dtr-logs/README.md); everything the format has no place for goes into the
sidecar FILE.meta.json.
"""
