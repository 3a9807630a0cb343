#!/usr/bin/env bash
# Build the cabinet's wheel from this clone, the one way install.sh (and so every image) builds it:
#   systemd/build-wheel.sh DIST_DIR [PYTHON]
# From a copy of the clone (root writes nothing into it: no build/, no *.egg-info), with setuptools
# pinned by requirements/build.txt (hashes checked) in a venv of its own, or with PYTHON where that
# already has it (tests/test_wheel.py passes the clone's venv, which has the same pin). Offline
# (--no-build-isolation: no build backend fetched at build time). The wheel holds what
# pyproject.toml's [tool.setuptools.packages.find] finds, the game (appliance/) alone: the lab
# (lab/) stays in the clone. Prints the wheel's path.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: build-wheel.sh DIST_DIR [PYTHON]" >&2; exit 2; }
dist="$1"
python="${2:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$dist"
tar -C "$here" --exclude=./.venv --exclude=./.git --exclude=./build --exclude='*.egg-info' -cf - . | tar -C "$work/src" -xf -
if [ -z "$python" ]; then
  python3 -m venv "$work/build-venv"
  "$work/build-venv/bin/pip" install --quiet --require-hashes -r "$here/requirements/build.txt"
  python="$work/build-venv/bin/python"
fi
"$python" -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir "$work/dist" "$work/src"
wheel="$(ls "$work"/dist/spit_arcade-*.whl)"
mv "$wheel" "$dist/"
echo "$dist/${wheel##*/}"
