#!/usr/bin/env bash
# Installs memsim's Debian 12 dependencies, builds the memsim binary into build/, and
# runs the shipped example scenario: the first result comes before the tests and
# benchmarks are compiled (scripts/test.sh builds those). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build pkg-config
          libsimgrid-dev libboost-graph-dev libyaml-cpp-dev catch2 nlohmann-json3-dev
          libcli11-dev libfmt-dev libsimdjson-dev
          libjemalloc-dev  # memsim's allocator (docs/performance.md, "Allocator")
          coinor-libcbc-dev  # the optimal recomputation planner's integer program (docs/optimal.md)
          chromium   # headless browser for the Gantt chart tests and screenshots
          hyperfine  # repeated timings with warm-up and statistics for scripts/bench.sh
          parallel   # GNU parallel: the README's scale-out recipe runs a sweep's jobs.txt with it
          python3-torch python3-torchvision  # memsim trace (tools/trace) runs them with /usr/bin/python3
          # Debian's torch calls BLAS through libblas.so.3: without this, the reference BLAS,
          # and a traced ViT's matrix products run 4x slower (docs/tracing.md, "BLAS")
          libopenblas0-openmp
          clang-14 libfuzzer-14-dev          # scripts/fuzz.sh: the libFuzzer targets (docs/fuzzing.md)
          clang-format                       # scripts/check_format.sh (CI): changed lines follow .clang-format
          # the Python package (docs/python.md): its module, its tests and the example notebook
          pybind11-dev python3-dev python3-pandas python3-pytest python3-matplotlib python3-yaml
          python3-nbclient python3-nbformat python3-ipykernel)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

echo "== building memsim into build/"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target memsim

if [ "${1:-}" != "--no-run" ]; then
  echo "== running scenarios/example.yaml"
  ./build/memsim run scenarios/example.yaml
fi

echo "== building the Python module (python/, docs/python.md)"
cmake --build build -j"$(nproc)" --target _memsim

# `import memsim` in any new shell with Debian's python3: a .pth file in its site folder
# names this checkout's package (python/) and module (build/python/). The last checkout
# set up wins; tests set PYTHONPATH to their own build.
site=$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])')
pth="$site/memsim.pth"
wanted=$(printf '%s\n%s\n' "$PWD/python" "$PWD/build/python")
if [ "$(cat "$pth" 2>/dev/null)" != "$wanted" ]; then
  echo "== registering the memsim Python package in $pth"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO mkdir -p "$site"
  printf '%s\n' "$wanted" | $SUDO tee "$pth" >/dev/null
fi
