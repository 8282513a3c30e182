#!/usr/bin/env bash
# Superseded by scripts/release.sh, which builds the Linux .deb and tar.xz
# (and the Windows installer, cubectl for every target, SHA256SUMS) into
# dist/ without the fyne tool. Kept so old notes still work.
exec "$(dirname "$0")/release.sh" "$@"
