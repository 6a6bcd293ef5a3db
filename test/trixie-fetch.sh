#!/usr/bin/env bash
# Download Debian trixie packages and unpack them into one folder, on a
# Debian bookworm machine, without installing them: apt-get reads trixie's
# lists with an apt configuration of this script's own (beside the
# machine's own Debian mirror), downloads the packages, and dpkg-deb
# unpacks each. The editors the end-to-end tests need newer than bookworm
# has (Neovim 0.10, Helix) come this way; their wrappers run them through
# trixie's own loader with trixie's libraries.
#
#   test/trixie-fetch.sh DIR PACKAGE...   (prints DIR/unpacked)
set -euo pipefail
dir=$(mkdir -p "$1" && cd "$1" && pwd)
shift
apt="$dir/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$dir/debs" "$dir/unpacked"
# The machine's own Debian mirror, from its apt sources, for the trixie suite.
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
if [ -z "$mirror" ]; then
  mirror=$(awk '$1 == "deb" && $2 !~ /^\[/ {print $2; exit} $1 == "deb" {print $3; exit}' /etc/apt/sources.list 2>/dev/null || true)
fi
if [ -z "$mirror" ]; then
  echo "trixie-fetch.sh: no Debian mirror found in the apt sources of this machine" >&2
  exit 1
fi
echo "deb $mirror trixie main" >"$apt/sources.list"
opts=(
  -o "Dir::Etc::SourceList=$apt/sources.list"
  -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$apt/lists"
  -o "Dir::Cache=$apt/cache"
  -o "APT::Architecture=amd64"
  -o "APT::Sandbox::User=root"
  -qq
)
apt-get "${opts[@]}" update >&2
(cd "$dir/debs" && apt-get "${opts[@]}" download "$@" >&2)
for deb in "$dir"/debs/*.deb; do
  dpkg-deb -x "$deb" "$dir/unpacked"
done
echo "$dir/unpacked"
