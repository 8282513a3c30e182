#!/usr/bin/env bash
# Try the artefacts scripts/release.sh left in dist/, on Debian 12 as root:
#   1. wine: cubectl.exe runs demo; the native cubectl validates the report it
#      wrote, and its SUMMARY.json equals the native demo's (same verdict on
#      Windows and Linux).
#   2. wine: the installer installs silently per user (files, shortcuts,
#      uninstall entry); the installed cube.exe opens its window on Xvfb and a
#      screenshot is saved as dist-try/cube-wine.png (look at it); the
#      uninstaller removes the program.
#   3. debootstrap: a clean Debian 12 minbase chroot; apt-get install ./the.deb
#      pulls its declared Depends; cube --version and cubectl demo run there.
#
#   scripts/try-release.sh [--display :97] [--skip-chroot]
# Needs: apt-get install -y wine xvfb x11-utils imagemagick debootstrap
# Everything goes to a private WINEPREFIX and HOME under dist-try/ (wine
# links the Windows Desktop and Documents to $HOME), and the chroot is
# removed afterwards. Results: dist-try/TRY.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
display=:97 chroot_try=1
while [ $# -gt 0 ]; do
  case $1 in
    --display) display=$2; shift ;;
    --skip-chroot) chroot_try=0 ;;
    *) echo "try-release.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
for t in wine Xvfb xwininfo import debootstrap x86_64-w64-mingw32-gcc; do
  command -v $t >/dev/null || { echo "try-release.sh: $t is missing (see the header)" >&2; exit 1; }
done
one() { # one GLOB: exactly one artefact
  local m=(dist/$1)
  [ ${#m[@]} = 1 ] && [ -e "${m[0]}" ] || { echo "try-release.sh: want one dist/$1, found: ${m[*]}" >&2; exit 1; }
  echo "$root/${m[0]}"
}
ctl_win=$(one 'cubectl_*_windows_amd64.exe')
ctl_linux=$(one 'cubectl_*_linux_amd64')
setup=$(one 'CuBE-Workbench_*_windows_amd64_setup.exe')
debfile=$(one 'cube-workbench_*_amd64.deb')

out=$root/dist-try
rm -rf "$out" && mkdir -p "$out/home"
log=$out/TRY.txt
: >"$log"
say() { echo "$*" | tee -a "$log"; }
ok() { say "PASS  $*"; }
fail() { say "FAIL  $*"; exit 1; }

export HOME=$out/home WINEPREFIX=$out/wine WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# One X server for every wine process: a wine session started without a
# display (e.g. by the installer) keeps a driverless desktop, and a window
# opened later in that session fails ("Failed to create helper window").
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb=$!
cube=
cleanup() { kill $cube $xvfb 2>/dev/null || true; wineserver -k 2>/dev/null || true; }
trap cleanup EXIT
export DISPLAY=$display
for _ in $(seq 60); do xwininfo -root >/dev/null 2>&1 && break; sleep 1; done
say "try-release $(date -u +%FT%TZ) on $(. /etc/os-release && echo "$PRETTY_NAME"), $(wine --version)"

# Debian 12's wine 8.0 lacks bcryptprimitives.dll, which every Go ≥ 1.24
# program loads at start-up (ProcessPrng); Windows 10+ has it. A test-only
# stand-in goes into this private prefix.
wineboot -i >/dev/null 2>&1 || true
x86_64-w64-mingw32-gcc -O2 -shared -o "$out/bcryptprimitives.dll" scripts/wine/bcryptprimitives.c -lbcrypt
cp "$out/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"

step() { printf '\n== %s  (%s)\n' "$1" "$(date -u +%H:%M:%S)" | tee -a "$log"; }

step "1. cubectl.exe under wine"
say "$(wine "$ctl_win" version | tr -d '\r')"
(cd "$out" && wine "$ctl_win" demo --out win-demo >win-demo.log 2>&1) || fail "wine cubectl.exe demo (see $out/win-demo.log)"
[ -s "$out/win-demo/report.xlsx" ] || fail "wine cubectl.exe demo wrote no report.xlsx"
ok "wine cubectl.exe demo wrote win-demo/report.xlsx ($(stat -c %s "$out/win-demo/report.xlsx") bytes)"
"$ctl_linux" validate "$out/win-demo/report.xlsx" >"$out/validate.log" 2>&1 ||
  fail "native cubectl validate of the Windows report (see $out/validate.log)"
ok "native cubectl validate read the Windows report: $(tail -1 "$out/validate.log")"
(cd "$out" && "$ctl_linux" demo --out linux-demo >linux-demo.log 2>&1) || fail "native demo"
# Same inputs, same offline judge: every number must agree. Only the run's
# own metadata may differ (paths, times, ids).
python3 - "$out/win-demo/SUMMARY.json" "$out/linux-demo/SUMMARY.json" <<'EOF' | tee -a "$log"
import json, sys
skip = {"started", "finished", "started_at", "finished_at", "run_id", "workbook", "store", "created", "duration_s", "elapsed_s"}
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in skip}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
a, b = (strip(json.load(open(p, encoding="utf-8"))) for p in sys.argv[1:3])
if a != b:
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            print("  differs:", k)
    print("FAIL  SUMMARY.json from wine differs from the native one")
    sys.exit(1)
print("PASS  SUMMARY.json from wine equals the native one (%d top-level keys)" % len(a))
EOF

step "2. the installer under wine, then cube.exe (both on Xvfb $display)"
wine "$setup" /S || fail "silent install"
inst="$WINEPREFIX/drive_c/users/$(id -un)/AppData/Local/Programs/CuBE Workbench"
[ -d "$inst" ] || inst=$(find "$WINEPREFIX/drive_c/users" -maxdepth 5 -type d -path '*Local/Programs/CuBE Workbench' | head -1)
for f in cube.exe cubectl.exe uninstall.exe OFL.txt README.txt; do
  [ -f "$inst/$f" ] || fail "installer did not write $f"
done
ok "installed per user into $(echo "$inst" | sed "s|$WINEPREFIX/drive_c|C:|")"
menu=$(find "$WINEPREFIX/drive_c/users" -path '*Start Menu/Programs/CuBE Workbench/CuBE Workbench.lnk' | head -1)
[ -n "$menu" ] || fail "no Start-menu shortcut"
[ -f "$HOME/CuBE Workbench.lnk" ] || [ -n "$(find "$WINEPREFIX/drive_c/users" -name 'CuBE Workbench.lnk' -path '*Desktop*')" ] ||
  fail "no desktop shortcut"
ok "Start-menu and desktop shortcuts"
wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\org.cubeworkbench.cube' /v DisplayVersion |
  tr -d '\r' | grep DisplayVersion | tee -a "$log" || fail "no uninstall entry under HKCU"

timeout 120 wineserver -w || wineserver -k # let the installer's session end
# A Chinese Windows: wine takes the user locale from LANG, and the window
# follows the system's language (CUBE_LANG is not set).
LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8 wine "$inst/cube.exe" >"$out/cube-wine.log" 2>&1 &
cube=$!
# Wait for the window by asking X, not by the clock: up to 10 minutes on a
# busy machine, then give the first frame a moment to render.
for _ in $(seq 300); do
  xwininfo -root -tree 2>/dev/null | grep -q '"CuBE Workbench"' && break
  kill -0 $cube 2>/dev/null || fail "cube.exe exited (see $out/cube-wine.log)"
  sleep 2
done
xwininfo -root -tree | grep '"CuBE Workbench"' | tee -a "$log" || fail "no CuBE Workbench window"
sleep 15
import -window root "$out/cube-wine.png"
ok "cube.exe opened its window; screenshot dist-try/cube-wine.png"
kill $cube $xvfb 2>/dev/null || true
wineserver -k 2>/dev/null || true
wait $xvfb 2>/dev/null || true

wine "$inst/uninstall.exe" /S || fail "silent uninstall"
# NSIS's uninstaller copies itself to %TEMP% and returns at once; wait for it.
wineserver -w || true
[ ! -e "$inst/cube.exe" ] || fail "uninstaller left cube.exe"
ok "uninstaller removed the program"

if [ $chroot_try = 1 ]; then
  step "3. the .deb in a clean Debian 12 chroot (debootstrap)"
  # The mirror this machine's apt uses (deb822 .sources or a one-line sources.list).
  mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
    sed -n 's/^URIs: *\(.*debian\)$/\1/p;s/^deb \(http[^ ]*debian\) bookworm .*/\1/p' | head -1 || true)
  mirror=${mirror:-http://deb.debian.org/debian}
  ch=$out/chroot
  debootstrap --variant=minbase bookworm "$ch" "$mirror" >"$out/debootstrap.log" 2>&1 || fail "debootstrap from $mirror"
  ok "debootstrap minbase bookworm from $mirror"
  mount -t proc proc "$ch/proc"
  trap 'cleanup; umount "$ch/proc" 2>/dev/null || true' EXIT
  cp "$debfile" "$ch/tmp/"
  chroot "$ch" apt-get update -qq
  chroot "$ch" env DEBIAN_FRONTEND=noninteractive apt-get install -y "/tmp/$(basename "$debfile")" >"$out/apt-install.log" 2>&1 ||
    fail "apt-get install ./$(basename "$debfile") (see $out/apt-install.log)"
  ok "apt-get install ./$(basename "$debfile"): $(grep -E '^[0-9]+ upgraded' "$out/apt-install.log")"
  say "  cube --version in the chroot: $(chroot "$ch" cube --version)"
  chroot "$ch" sh -c 'cd /tmp && cubectl demo --out d >/dev/null 2>&1 && test -s d/report.xlsx' || fail "cubectl demo in the chroot"
  ok "cubectl demo in the chroot wrote a report"
  chroot "$ch" test -f /usr/share/applications/org.cubeworkbench.cube.desktop || fail "no desktop entry"
  # The window, with nothing but the .deb's declared Depends: the chroot's
  # cube draws on the host's Xvfb through its socket.
  Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp >>"$out/xvfb.log" 2>&1 &
  xvfb=$!
  for _ in $(seq 60); do xwininfo -root >/dev/null 2>&1 && break; sleep 1; done
  mkdir -p "$ch/tmp/.X11-unix" && mount --bind /tmp/.X11-unix "$ch/tmp/.X11-unix"
  trap 'cleanup; umount "$ch/tmp/.X11-unix" "$ch/proc" 2>/dev/null || true' EXIT
  chroot "$ch" env DISPLAY="$display" LANG=zh_CN.UTF-8 HOME=/root cube >"$out/cube-chroot.log" 2>&1 &
  cube=$!
  for _ in $(seq 300); do
    xwininfo -root -tree 2>/dev/null | grep -q '"CuBE Workbench"' && break
    kill -0 $cube 2>/dev/null || fail "cube in the chroot exited (see $out/cube-chroot.log)"
    sleep 2
  done
  sleep 15
  import -window root "$out/cube-chroot.png"
  ok "cube from the .deb opened its window in the chroot; screenshot dist-try/cube-chroot.png"
  kill $cube $xvfb 2>/dev/null || true
  wait $cube 2>/dev/null || true
  umount "$ch/tmp/.X11-unix"
  chroot "$ch" apt-get remove -y cube-workbench >/dev/null 2>&1 || fail "apt-get remove"
  ok "apt-get remove cube-workbench"
  umount "$ch/proc"
  rm -rf "$ch"
fi
say ""
say "all tried; log $log"
