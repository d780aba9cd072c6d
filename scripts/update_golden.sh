#!/usr/bin/env bash
# Rewrites the golden files under tests/golden/ from what the current build prints: run it
# when a change of behaviour is intended, then review `git diff tests/golden` and commit
# the diff with the change that caused it. Builds first; extra arguments go to ctest
# (e.g. -R 'golden' for the shipped scenarios only).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build -j"$(nproc)"
MEMSIM_UPDATE_GOLDEN=1 ctest --test-dir build -j"$(nproc)" "$@"
git status --short tests/golden
