#!/usr/bin/env bash
# test/wine/run.sh PROGRAM.exe [ARGS...]: runs a Windows program under
# Wine, in a Wine prefix of eukhe's own (made once, kept in the user's
# cache: EUKHE_WINEPREFIX overrides where).
#
# Go 1.24 and later need ProcessPrng from bcryptprimitives.dll, which Wine
# 8 (Debian bookworm's) lacks: dll/processprng.c is a stand-in built with
# mingw-w64 and put in the prefix's system32. It exists for Wine only.
#
# Needs wine64 and gcc-mingw-w64-x86-64 (Debian: apt install wine64
# gcc-mingw-w64-x86-64-win32); .ci/run installs them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
wine=$(command -v wine64 || true)
[ -n "$wine" ] || [ ! -x /usr/lib/wine/wine64 ] || wine=/usr/lib/wine/wine64
if [ -z "$wine" ]; then
  echo "test/wine/run.sh: wine64 is not installed (Debian: apt install wine64)" >&2
  exit 3
fi
export WINEPREFIX=${EUKHE_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/eukhe-wine}
export WINEDEBUG=${WINEDEBUG:--all}
dll=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
stale() { [ ! -f "$WINEPREFIX/.eukhe-ready" ] || [ "$here/dll/processprng.c" -nt "$WINEPREFIX/.eukhe-ready" ]; }
if stale; then
  command -v x86_64-w64-mingw32-gcc >/dev/null || {
    echo "test/wine/run.sh: x86_64-w64-mingw32-gcc is not installed (Debian: apt install gcc-mingw-w64-x86-64-win32)" >&2
    exit 3
  }
  mkdir -p "$WINEPREFIX"
  # One run makes the prefix; the others wait for it here (the tests run
  # many at once). Unlocked, each made it again, and each one's wait for
  # the wine server to end waited out the minute another run's kept
  # server lives (below).
  exec 9>"$WINEPREFIX/.eukhe-lock"
  flock 9
  if stale; then
    "$wine" wineboot -i >/dev/null 2>&1
    "${wine%64}server" -w 2>/dev/null || wineserver -w 2>/dev/null || true
    x86_64-w64-mingw32-gcc -O2 -shared -o "$dll" "$here/dll/processprng.c" -ladvapi32
    touch "$WINEPREFIX/.eukhe-ready"
  fi
  exec 9>&-
fi
# One wine server for the prefix, kept a minute past its last client: a
# server that ends as its last client exits races the next program's
# start ("wine client error: recvmsg: Connection reset by peer", seen
# under load). Its three streams go nowhere, or the server would hold the
# caller's output pipe open for that minute. A server already running
# makes this one exit.
wineserver=${wine%64}server
[ -x "$wineserver" ] || wineserver=$(command -v wineserver || true)
[ -z "$wineserver" ] || "$wineserver" -p60 </dev/null >/dev/null 2>&1 || true
exec "$wine" "$@"
