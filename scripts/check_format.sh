#!/usr/bin/env bash
# Holds the C++ lines a change adds or edits to .clang-format; the code as it was written
# is never reformatted. git clang-format looks only at the lines that differ from BASE
# (default HEAD~1: the last commit, or on a merge commit everything the merge brings),
# uncommitted edits included. Prints what clang-format would change and exits 1 if
# anything; 0 when the changed lines are formatted. A second or two.
#   scripts/check_format.sh [BASE]      e.g. scripts/check_format.sh main
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-HEAD~1}
for tool in clang-format git-clang-format; do
  if ! command -v "$tool" >/dev/null; then
    echo "check_format: $tool is not installed (scripts/setup.sh installs the Debian package clang-format)" >&2
    exit 1
  fi
done
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "check_format: not a git checkout; no changed lines to check" >&2
  exit 0
fi
if ! git rev-parse --verify -q "$base^{commit}" >/dev/null; then
  if [ $# -eq 0 ] && ! git rev-parse --verify -q HEAD~1 >/dev/null; then
    # A repository of one commit (or a clone of depth 1): no change to check against.
    echo "check_format: HEAD has no parent commit; nothing to compare with, no lines checked" >&2
    exit 0
  fi
  echo "check_format: '$base' is not a commit" >&2
  exit 1
fi
# git clang-format 14 exits 0 whether or not it would change anything: its output says.
out=$(git clang-format --binary "$(command -v clang-format)" --style file --extensions c,cc,cpp,h,hpp --diff "$base" 2>&1)
case "$out" in
  "no modified files to format" | "clang-format did not modify any files")
    echo "check_format: the C++ lines changed since $base are formatted (.clang-format)"
    ;;
  *)
    printf '%s\n' "$out"
    echo "check_format: the lines above, changed since $base, are not formatted as .clang-format says;" \
         "apply with: git clang-format $base" >&2
    exit 1
    ;;
esac
