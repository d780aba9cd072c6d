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
# One Chromium for every plot (scripts/plots_to_png.py: the DevTools protocol on a pipe),
# where a Chromium per plot cost about 2 s of CPU each.
command -v python3 >/dev/null || { echo "plots_to_png.sh: python3 not found (Debian's python3; scripts/setup.sh installs it)" >&2; exit 1; }
python3 "$(dirname "$0")/plots_to_png.py" "$(command -v "$chromium")" "$scale" "$work" "${svgs[@]}" || exit 1
for svg in "${svgs[@]}"; do
  [ -s "${svg%.svg}.png" ] || { echo "plots_to_png.sh: chromium wrote no ${svg%.svg}.png" >&2; exit 1; }
done
