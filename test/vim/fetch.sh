#!/usr/bin/env bash
# Fetch Vim 9.1 (Debian trixie's vim, with vim-runtime) and the LSP client
# ALE (trixie's vim-ale) for the Vim end-to-end test, on a Debian bookworm
# machine, without installing them (test/trixie-fetch.sh), and write a
# wrapper that runs Vim through trixie's own loader with its runtime.
# ALE is plain Vim script: it lands in DIR/unpacked/usr/share/vim-ale,
# where the test finds it beside the wrapper.
#
#   test/vim/fetch.sh [DIR]   (default: test/vim/.vim)
#
# It prints the wrapper's path; run the test with it:
#   EUKHE_VIM=$(test/vim/fetch.sh) go test ./test/vim
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mkdir -p "${1:-$here/.vim}" && cd "${1:-$here/.vim}" && pwd)
wrapper="$dir/vim"
if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1 && [ -d "$dir/unpacked/usr/share/vim-ale/autoload" ]; then
  echo "$wrapper"
  exit 0
fi

# vim's own libraries (its Depends, and libpcre2 for libselinux), from
# trixie, so trixie's loader finds every one of them in one folder.
"$here/../trixie-fetch.sh" "$dir" vim vim-runtime vim-ale \
  libc6 libacl1 libgpm2 libselinux1 libsodium23 libtinfo6 libpcre2-8-0 >/dev/null

lib="$dir/unpacked/usr/lib/x86_64-linux-gnu"
cat >"$wrapper" <<WRAP
#!/bin/sh
# Vim from Debian trixie, through trixie's loader (fetch.sh).
export VIMRUNTIME="$dir/unpacked/usr/share/vim/vim91"
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$dir/unpacked/usr/bin/vim.basic" "\$@"
WRAP
chmod +x "$wrapper"
"$wrapper" --version | head -1 >&2
echo "$wrapper"
