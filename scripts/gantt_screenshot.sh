#!/usr/bin/env bash
# Makes docs/img/example_gantt.png: runs scenarios/swap_modes.yaml as shipped (the traced
# MobileNetV2 in 60% of its no-swap peak by asynchronous swapping with just-in-time
# prefetch on the phone disk: 1.26x the time for 40% less memory) with the Gantt chart
# on, and screenshots gantt.html with headless Chromium.
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
"$memsim" run scenarios/swap_modes.yaml -q --out "$work/run" --set output.gantt=true

mkdir -p "$(dirname "$png")"
# --virtual-time-budget lets the page's script draw before the screenshot is taken.
"$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$work/profile" \
  --virtual-time-budget=5000 --window-size=1400,600 --screenshot="$(realpath -m "$png")" \
  "file://$work/run/gantt.html" >/dev/null 2>"$work/chromium.err" \
  || { cat "$work/chromium.err" >&2; exit 1; }
[ -s "$png" ] || { echo "gantt_screenshot.sh: chromium wrote no $png" >&2; cat "$work/chromium.err" >&2; exit 1; }
echo "wrote $png"
