#!/usr/bin/env bash
# Fetch a current Neovim (Debian trixie's 0.10.4) for the eukhe lsp
# end-to-end tests, on a Debian bookworm machine, without installing it:
# apt-get downloads the packages from trixie with an apt configuration of
# this script's own, dpkg-deb unpacks them into one folder, and a wrapper
# runs that nvim through trixie's own loader with trixie's libraries.
#
#   test/nvim/fetch-0.10.sh [DIR]   (default: test/nvim/.nvim-0.10)
#
# It prints the wrapper's path; run the tests with it:
#   EUKHE_NVIM=$(test/nvim/fetch-0.10.sh) go test -run LSPWithNeovim ./cmd/eukhe
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mkdir -p "${1:-$here/.nvim-0.10}" && cd "${1:-$here/.nvim-0.10}" && pwd)
wrapper="$dir/nvim"
if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1; then
  echo "$wrapper"
  exit 0
fi

apt="$dir/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$dir/debs" "$dir/unpacked"
# The machine's own Debian mirror, from its apt sources, for the trixie suite.
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
if [ -z "$mirror" ]; then
  mirror=$(awk '$1 == "deb" && $2 !~ /^\[/ {print $2; exit} $1 == "deb" {print $3; exit}' /etc/apt/sources.list 2>/dev/null || true)
fi
if [ -z "$mirror" ]; then
  echo "fetch-0.10.sh: no Debian mirror found in the apt sources of this machine" >&2
  exit 1
fi
echo "deb $mirror trixie main" >"$apt/sources.list"
opts=(
  -o "Dir::Etc::SourceList=$apt/sources.list"
  -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$apt/lists"
  -o "Dir::Cache=$apt/cache"
  -o "APT::Architecture=amd64"
  -qq
)
apt-get "${opts[@]}" update >&2
(cd "$dir/debs" && apt-get "${opts[@]}" download \
  neovim neovim-runtime libc6 libgcc-s1 libluajit-5.1-2 libmsgpack-c2 \
  libtree-sitter0.22 libunibilium4 libuv1t64 libvterm0 lua-lpeg lua-luv >&2)
for deb in "$dir"/debs/*.deb; do
  dpkg-deb -x "$deb" "$dir/unpacked"
done

lib="$dir/unpacked/usr/lib/x86_64-linux-gnu"
cat >"$wrapper" <<WRAP
#!/bin/sh
# Neovim 0.10 from Debian trixie, through trixie's loader (fetch-0.10.sh).
export VIMRUNTIME="$dir/unpacked/usr/share/nvim/runtime"
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib:$lib/lua/5.1" "$dir/unpacked/usr/bin/nvim" "\$@"
WRAP
chmod +x "$wrapper"
"$wrapper" --version | head -1 >&2
echo "$wrapper"
