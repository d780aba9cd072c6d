#!/usr/bin/env bash
# PNG copies of a sweep's plots, for papers: every DIR/plot_*.svg becomes DIR/plot_*.png,
# rendered by headless Chromium (Debian's chromium; no network) at its own size times SCALE.
#
#   scripts/plots_to_png.sh DIR [SCALE]      (SCALE: device pixels per SVG pixel, default 2)
#
# Environment: CHROMIUM (default chromium; scripts/setup.sh installs Debian's package).
set -euo pipefail

dir="${1:?usage: scripts/plots_to_png.sh DIR [SCALE]}"
scale="${2:-2}"
chromium="${CHROMIUM:-chromium}"
command -v "$chromium" >/dev/null || { echo "plots_to_png.sh: $chromium not found; apt-get install chromium (scripts/setup.sh does)" >&2; exit 1; }
shopt -s nullglob
svgs=("$dir"/plot_*.svg)
[ ${#svgs[@]} -gt 0 ] || { echo "plots_to_png.sh: no plot_*.svg in $dir" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for svg in "${svgs[@]}"; do
  # The chart's own size, from its root element: <svg ... width="W" height="H" ...>
  size="$(head -c 400 "$svg" | sed -n 's/.*<svg[^>]* width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1,\2/p')"
  [ -n "$size" ] || { echo "plots_to_png.sh: $svg has no width/height" >&2; exit 1; }
  png="${svg%.svg}.png"
  "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$work/profile" \
    --force-device-scale-factor="$scale" --window-size="$size" --screenshot="$(realpath -m "$png")" \
    "file://$(realpath "$svg")" >/dev/null 2>"$work/chromium.err" \
    || { cat "$work/chromium.err" >&2; exit 1; }
  [ -s "$png" ] || { echo "plots_to_png.sh: chromium wrote no $png" >&2; cat "$work/chromium.err" >&2; exit 1; }
  echo "wrote $png"
done
