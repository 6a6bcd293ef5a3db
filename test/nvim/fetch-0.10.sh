#!/usr/bin/env bash
# Fetch a current Neovim (Debian trixie's 0.10.4) for the eukhe lsp
# end-to-end tests, on a Debian bookworm machine, without installing it
# (test/trixie-fetch.sh), and write a wrapper that runs that nvim through
# trixie's own loader with trixie's libraries.
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

"$here/../trixie-fetch.sh" "$dir" \
  neovim neovim-runtime libc6 libgcc-s1 libluajit-5.1-2 libmsgpack-c2 \
  libtree-sitter0.22 libunibilium4 libuv1t64 libvterm0 lua-lpeg lua-luv >/dev/null

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
