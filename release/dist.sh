#!/usr/bin/env bash
# make dist: the release archives and the VS Code packages, one per target.
#
#   dist/eukhe_VERSION_OS_ARCH.tar.gz   (windows: .zip) eukhe, README.md, LICENSE
#   dist/eukhe-VSCODETARGET-VERSION.vsix the extension with that target's binary in bin/
#   dist/SHA256SUMS                     sha256sum of every file above
#
# VERSION is `git describe --tags --always --dirty` (v0.1.0, v0.1.0-3-gabcdef0,
# or a bare revision before the first tag), stamped into the binary, which
# `eukhe version` prints. TARGETS (default: all six) limits the run, e.g.
# TARGETS="linux/amd64 windows/amd64". VSIX=0 skips the VS Code packages.
# release/check.sh then checks what was built.
set -euo pipefail
cd "$(dirname "$0")/.."

version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}
targets=${TARGETS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"}
out=dist
rm -rf "$out"
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"; rm -rf editors/vscode/bin' EXIT

# vscode_target is the VS Code platform name of a Go target.
vscode_target() {
  local os=${1%/*} arch=${1#*/}
  case $os in windows) os=win32 ;; esac
  case $arch in amd64) arch=x64 ;; esac
  echo "$os-$arch"
}

if [ "${VSIX:-1}" != 0 ]; then
  (cd editors/vscode && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && npm run --silent bundle -- --log-level=warning)
fi

for t in $targets; do
  os=${t%/*} arch=${t#*/}
  exe=eukhe
  [ "$os" = windows ] && exe=eukhe.exe
  name=eukhe_${version}_${os}_${arch}
  dir=$stage/$name
  mkdir -p "$dir"
  echo "dist: $t"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath \
    -ldflags "-s -w -X github.com/eukhe/eukhe/agent.stamp=$version" \
    -o "$dir/$exe" ./cmd/eukhe
  cp README.md LICENSE "$dir/"
  if [ "$os" = windows ]; then
    (cd "$stage" && zip -q -r "$OLDPWD/$out/$name.zip" "$name")
  else
    tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
  fi
  if [ "${VSIX:-1}" != 0 ]; then
    vt=$(vscode_target "$t")
    rm -rf editors/vscode/bin && mkdir -p editors/vscode/bin
    cp "$dir/$exe" editors/vscode/bin/
    (cd editors/vscode && npx --no-install vsce package --no-dependencies --target "$vt" \
      --out "../../$out/eukhe-$vt-$(node -p 'require("./package.json").version').vsix" >/dev/null)
  fi
done

(cd "$out" && sha256sum -- * > SHA256SUMS)
echo "dist: $(ls "$out" | wc -l) files in $out/ (version $version)"
bash release/check.sh "$out" "$version"
