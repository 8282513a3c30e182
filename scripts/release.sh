#!/usr/bin/env bash
# Build every release artefact into dist/ from a clean checkout on Debian 12.
#
#   scripts/release.sh                  everything (≈ see README "Building a release")
#   scripts/release.sh --cubectl-only   cubectl for every target + SHA256SUMS (cheap; CI runs this)
#   scripts/release.sh --allow-dirty    build from a tree with uncommitted changes (version gets .dirty)
#   scripts/release.sh --deps           first apt-get install the build tools (as root)
#
# Artefacts (V = the version from git, see version_from_git):
#   cubectl_V_{linux_amd64,linux_arm64,darwin_amd64,darwin_arm64,windows_amd64.exe}   CGO_ENABLED=0
#   CuBE-Workbench_V_windows_amd64_setup.exe      NSIS, per user, Chinese + English
#   CuBE-Workbench_V_windows_amd64_portable.zip   cube.exe + cubectl.exe, no installer
#   cube-workbench_DEBV_amd64.deb                 /usr/bin/cube, /usr/bin/cubectl, desktop entry, icon
#   cube-workbench_V_linux_amd64.tar.xz           the same files without dpkg
#   cube-workbench_V_linux_arm64.tar.xz           only if CUBE_ARM64_GUI=1 and the arm64 cross libs are installed
#   SHA256SUMS, SIZES.txt
# scripts/try-release.sh then tries them (wine, Xvfb, a debootstrap chroot).
#
# Needs: Go 1.26 (not in Debian 12's apt: https://go.dev/dl), git, and for the full build
#   apt-get install -y gcc libgl1-mesa-dev xorg-dev gcc-mingw-w64-x86-64 nsis imagemagick \
#       zip xz-utils dpkg-dev
# and the module proxy for github.com/tc-hib/go-winres (icon + version resource).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

cubectl_only=0 allow_dirty=0 deps=0
for a in "$@"; do
  case $a in
    --cubectl-only) cubectl_only=1 ;;
    --allow-dirty) allow_dirty=1 ;;
    --deps) deps=1 ;;
    -h | --help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "release.sh: unknown option $a (try --help)" >&2; exit 2 ;;
  esac
done

apt_tools="gcc libgl1-mesa-dev xorg-dev gcc-mingw-w64-x86-64 nsis imagemagick zip xz-utils dpkg-dev"
if [ $deps = 1 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $apt_tools >/dev/null
fi

need() { # need TOOL WHY: fail loudly, before an hour of building, naming the package
  command -v "$1" >/dev/null || { echo "release.sh: $1 is missing ($2)" >&2; exit 1; }
}
need go "Go 1.26 from https://go.dev/dl; Debian 12's apt has only 1.19"
need git "apt-get install -y git"
case $(go env GOVERSION) in
  go1.2[6-9]* | go1.[3-9][0-9]*) ;;
  *) echo "release.sh: $(go env GOVERSION) is too old; go.mod needs Go 1.26 (https://go.dev/dl)" >&2; exit 1 ;;
esac
if [ $cubectl_only = 0 ]; then
  need gcc "apt-get install -y gcc libgl1-mesa-dev xorg-dev"
  need x86_64-w64-mingw32-gcc "apt-get install -y gcc-mingw-w64-x86-64"
  need makensis "apt-get install -y nsis"
  need convert "apt-get install -y imagemagick"
  need zip "apt-get install -y zip"
  need xz "apt-get install -y xz-utils"
  need dpkg-shlibdeps "apt-get install -y dpkg-dev"
fi

# version_from_git: a tag vX.Y.Z on HEAD is the release X.Y.Z; otherwise
# BASE-dev.N.gHASH, N = commits so far (so versions sort), BASE from
# FyneApp.toml (= internal/version.Base, a test keeps them equal). No "+":
# the version goes into file names, URLs and the .deb's Version.
field() { sed -n "s/^$1 *= *\"\{0,1\}\([^\"]*\)\"\{0,1\}$/\1/p" FyneApp.toml | head -1; }
base=$(field Version)
commit=$(git rev-parse HEAD)
count=$(git rev-list --count HEAD)
date=$(git log -1 --format=%cs)
if tag=$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null); then
  version=${tag#v}
else
  version="$base-dev.$count.g$(git rev-parse --short=10 HEAD)"
fi
if [ -n "$(git status --porcelain)" ]; then
  [ $allow_dirty = 1 ] || { echo "release.sh: the tree has uncommitted changes; commit them or pass --allow-dirty" >&2; exit 1; }
  version="$version.dirty"
fi
deb_version=${version/-/\~}          # 0.1.0~dev.7.g… sorts before the 0.1.0 release
win_version="${base%%-*}.$((count % 65536))" # four numbers for Windows' fixed version fields
export SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
pkg=cubeworkbench/internal/version
ldflags="-s -w -X $pkg.version=$version -X $pkg.commit=$commit -X $pkg.date=$date"
build() { go build -trimpath -buildvcs=false -ldflags "$ldflags $BUILD_LDFLAGS" "$@"; }

dist=$root/dist
rm -rf "$dist" && mkdir -p "$dist"
work=$(mktemp -d) && trap 'rm -rf "$work" "$root"/cmd/cube/rsrc_windows_*.syso' EXIT
step() { printf '\n== %s  (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
echo "CuBE Workbench $version ($commit, $date) with $(go env GOVERSION)"

step "cubectl for every target (CGO_ENABLED=0)"
for t in linux/amd64 linux/arm64 windows/amd64 darwin/amd64 darwin/arm64; do
  os=${t%/*} arch=${t#*/} ext=
  [ "$os" = windows ] && ext=.exe
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch BUILD_LDFLAGS= build -o "$dist/cubectl_${version}_${os}_${arch}$ext" ./cmd/cubectl
done

sums() {
  step "SHA256SUMS"
  (cd "$dist" && sha256sum -- * >"$work/SHA256SUMS" && mv "$work/SHA256SUMS" . &&
    stat -c '%s %n' -- * | awk '{printf "%12d  %s\n", $1, $2}' >SIZES.txt && cat SIZES.txt)
}
if [ $cubectl_only = 1 ]; then sums; exit 0; fi

step "Windows amd64: cube.exe (cgo, mingw-w64, GUI subsystem, icon + version resource)"
# go-winres writes the .syso that go build links into the cube package on
# windows/amd64 only (the file name says so); removed again on exit.
go run github.com/tc-hib/go-winres@v0.3.3 make --in packaging/windows/winres.json --arch amd64 \
  --out cmd/cube/rsrc --product-version "$version" --file-version "$win_version"
mkdir -p "$work/win"
CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++ \
  BUILD_LDFLAGS=-H=windowsgui build -o "$work/win/cube.exe" ./cmd/cube
rm -f cmd/cube/rsrc_windows_*.syso
cp "$dist/cubectl_${version}_windows_amd64.exe" "$work/win/cubectl.exe"
cp assets/fonts/OFL.txt "$work/win/OFL.txt"
sed 's/$/\r/' packaging/README.txt >"$work/win/README.txt" # Notepad on older Windows wants CRLF
convert assets/icon/icon.png -define icon:auto-resize=256,64,48,32,16 "$work/win/cube.ico"

step "Windows: portable zip"
mkdir -p "$work/zip/CuBE Workbench"
cp "$work"/win/{cube.exe,cubectl.exe,OFL.txt,README.txt} "$work/zip/CuBE Workbench/"
(cd "$work/zip" && find . -exec touch -d "@$SOURCE_DATE_EPOCH" {} + &&
  zip -qrX "$dist/CuBE-Workbench_${version}_windows_amd64_portable.zip" "CuBE Workbench")

step "Windows: NSIS installer"
makensis -V2 -DVERSION="$version" -DVERSION4="$win_version" -DSRCDIR="$work/win" \
  -DOUTFILE="$dist/CuBE-Workbench_${version}_windows_amd64_setup.exe" packaging/windows/installer.nsi

# linux_tree ARCH CC DIR: cube + cubectl + desktop entry + icons under DIR/usr.
linux_tree() {
  local arch=$1 cc=$2 d=$3
  mkdir -p "$d/usr/bin" "$d/usr/share/applications" "$d/usr/share/doc/cube-workbench"
  CGO_ENABLED=1 GOOS=linux GOARCH=$arch CC=$cc BUILD_LDFLAGS= build -o "$d/usr/bin/cube" ./cmd/cube
  cp "$dist/cubectl_${version}_linux_$arch" "$d/usr/bin/cubectl"
  install -m644 packaging/linux/org.cubeworkbench.cube.desktop "$d/usr/share/applications/"
  for s in 256 128 64 48 32; do
    mkdir -p "$d/usr/share/icons/hicolor/${s}x$s/apps"
    convert assets/icon/icon.png -resize ${s}x$s -strip "$d/usr/share/icons/hicolor/${s}x$s/apps/org.cubeworkbench.cube.png"
  done
  install -m644 packaging/linux/copyright assets/fonts/OFL.txt packaging/README.txt "$d/usr/share/doc/cube-workbench/"
  chmod 755 "$d/usr/bin/cube" "$d/usr/bin/cubectl"
}

# deb ARCH DIR: a .deb of DIR, its Depends computed by dpkg-shlibdeps from
# the libraries cube links (libGL, libX11, libc6 with the newest symbol
# version used) plus those GLFW loads itself, so apt on UOS/Kylin refuses it
# loudly rather than installing a binary that cannot start.
deb() {
  local arch=$1 d=$2 depends size
  mkdir -p "$work/shlibs/debian" "$d/DEBIAN" && : >"$work/shlibs/debian/control"
  depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O --ignore-missing-info -e "$d/usr/bin/cube" 2>/dev/null |
    sed -n 's/^shlibs:Depends=//p')
  [ -n "$depends" ] || { echo "release.sh: dpkg-shlibdeps found no dependencies for cube" >&2; exit 1; }
  # GLFW dlopen()s these at start-up, so they are not DT_NEEDED and
  # dpkg-shlibdeps cannot see them; without them the window loses cursors,
  # monitor sizes (RandR, Xinerama), raw mouse input or gamma. Declared when
  # the binary names them.
  local so
  for so in libXcursor.so.1=libxcursor1 libXrandr.so.2=libxrandr2 libXinerama.so.1=libxinerama1 \
    libXi.so.6=libxi6 libXxf86vm.so.1=libxxf86vm1 libXrender.so.1=libxrender1; do
    if grep -qaF "${so%=*}" "$d/usr/bin/cube" && [[ ", $depends," != *", ${so#*=}"[,\ ]* ]]; then
      depends="$depends, ${so#*=}"
    fi
  done
  size=$(du -sk --exclude=DEBIAN "$d" | cut -f1)
  sed -e "s/@VERSION@/$deb_version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$size/" \
    -e "s/@DEPENDS@/$depends/" packaging/linux/control.in >"$d/DEBIAN/control"
  echo "Depends: $depends"
  find "$d" -exec touch -d "@$SOURCE_DATE_EPOCH" {} +
  dpkg-deb --root-owner-group -Zxz --build "$d" "$dist/cube-workbench_${deb_version}_$arch.deb" >/dev/null
}

# tarball ARCH DIR: the same tree for systems without dpkg; unpack into /
# or run usr/bin/cube in place.
tarball() {
  local arch=$1 d=$2 name="cube-workbench_${version}_linux_$1"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    --exclude=DEBIAN -C "$d" -cJf "$dist/$name.tar.xz" --transform "s,^\.,$name," .
}

step "Linux amd64: cube (cgo), .deb and tar.xz"
linux_tree amd64 gcc "$work/deb-amd64"
deb amd64 "$work/deb-amd64"
tarball amd64 "$work/deb-amd64"

if [ "${CUBE_ARM64_GUI:-0}" = 1 ]; then
  step "Linux arm64: cube (cgo with aarch64-linux-gnu-gcc and the arm64 multiarch -dev packages)"
  need aarch64-linux-gnu-gcc "apt-get install -y gcc-aarch64-linux-gnu; dpkg --add-architecture arm64; apt-get install libgl1-mesa-dev:arm64 xorg-dev:arm64"
  PKG_CONFIG_PATH=/usr/lib/aarch64-linux-gnu/pkgconfig linux_tree arm64 aarch64-linux-gnu-gcc "$work/deb-arm64"
  deb arm64 "$work/deb-arm64"
  tarball arm64 "$work/deb-arm64"
fi

sums
