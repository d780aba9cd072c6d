#!/usr/bin/env bash
# Makes docs/img/example_gantt.png: runs the example scenario with the Gantt chart on
# (asynchronous swapping of the feature maps at 100 MB/s, a 12 MiB budget, so that every
# lane has something in it) and screenshots gantt.html with headless Chromium.
#
#   scripts/gantt_screenshot.sh [OUTPUT.png]
#
# Environment: MEMSIM (default build/memsim; scripts/setup.sh builds it), CHROMIUM
# (default chromium; scripts/setup.sh installs Debian's package).
set -euo pipefail
cd "$(dirname "$0")/.."

memsim="${MEMSIM:-build/memsim}"
chromium="${CHROMIUM:-chromium}"
png="${1:-docs/img/example_gantt.png}"
[ -x "$memsim" ] || { echo "gantt_screenshot.sh: $memsim not found; build it first (scripts/setup.sh --no-run) or set MEMSIM" >&2; exit 1; }
command -v "$chromium" >/dev/null || { echo "gantt_screenshot.sh: $chromium not found; apt-get install chromium (scripts/setup.sh does)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$memsim" run scenarios/example.yaml -q --out "$work/run" \
  --set output.gantt=true \
  --set policy.swap.mode=async --set policy.swap.select=feature_maps --set policy.swap.prefetch=just_in_time \
  --set platform.disk.bandwidth=100MB/s --set platform.memory.budget=12MiB

mkdir -p "$(dirname "$png")"
# --virtual-time-budget lets the page's script draw before the screenshot is taken.
"$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$work/profile" \
  --virtual-time-budget=5000 --window-size=1400,600 --screenshot="$(realpath -m "$png")" \
  "file://$work/run/gantt.html" >/dev/null 2>"$work/chromium.err" \
  || { cat "$work/chromium.err" >&2; exit 1; }
[ -s "$png" ] || { echo "gantt_screenshot.sh: chromium wrote no $png" >&2; cat "$work/chromium.err" >&2; exit 1; }
echo "wrote $png"
