#!/usr/bin/env bash
# Package the desktop app with `fyne package` from the repository root.
# FyneApp.toml sits at the root (the project card puts it there), while
# `fyne package` reads metadata beside the main package, so the name, id,
# version and icon are passed from FyneApp.toml on the command line.
#   scripts/package.sh [linux|windows|darwin]   → CuBE Workbench.tar.xz (linux)
# Needs the fyne tool: go install fyne.io/tools/cmd/fyne@latest
# and, for linux, the cgo headers: apt-get install -y libgl1-mesa-dev xorg-dev
set -euo pipefail
cd "$(dirname "$0")/.."
os=${1:-linux}
field() { sed -n "s/^$1 *= *\"\{0,1\}\([^\"]*\)\"\{0,1\}$/\1/p" FyneApp.toml | head -1; }
fyne=$(command -v fyne || echo "$(go env GOPATH)/bin/fyne")
"$fyne" package --os "$os" --src cmd/cube \
  --name "$(field Name)" --app-id "$(field ID)" \
  --app-version "$(field Version)" --app-build "$(field Build)" \
  --icon ../../"$(field Icon)" --release
ls -la ./*.tar.xz ./*.exe ./*.app 2>/dev/null || true
