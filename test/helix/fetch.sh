#!/usr/bin/env bash
# Fetch Helix (Debian trixie's hx 25.01) for the Helix end-to-end test, on
# a Debian bookworm machine, without installing it (test/trixie-fetch.sh),
# and write a wrapper that runs it through trixie's own loader with its
# runtime (grammars, queries, themes).
#
#   test/helix/fetch.sh [DIR]   (default: test/helix/.hx)
#
# It prints the wrapper's path; run the test with it:
#   EUKHE_HELIX=$(test/helix/fetch.sh) go test ./test/helix
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mkdir -p "${1:-$here/.hx}" && cd "${1:-$here/.hx}" && pwd)
wrapper="$dir/hx"
if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1; then
  echo "$wrapper"
  exit 0
fi

"$here/../trixie-fetch.sh" "$dir" hx libc6 libgcc-s1 >/dev/null

lib="$dir/unpacked/usr/lib/x86_64-linux-gnu"
cat >"$wrapper" <<WRAP
#!/bin/sh
# Helix from Debian trixie, through trixie's loader (fetch.sh).
export HELIX_RUNTIME="$dir/unpacked/usr/lib/hx/runtime"
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$dir/unpacked/usr/lib/hx/hx" "\$@"
WRAP
chmod +x "$wrapper"
"$wrapper" --version | head -1 >&2
echo "$wrapper"
