#!/usr/bin/env bash
# test/wine/units.sh PKG...: builds each package's Windows test binary and
# runs it under Wine (run.sh), then prints, per package, how many tests
# passed, failed and skipped, the seconds its run took (the build not
# counted), and the names of the failures. It exits 1
# when any failed. Not yet part of make test (guide/platforms.md).
# EUKHE_UNITS_LOGS=DIR keeps each package's whole log there.
#
# Wine 8 has no FileDispositionInformationEx (it answers
# STATUS_NOT_IMPLEMENTED), which Go's os.RemoveAll on Windows asks for
# first; Go falls back to the older deletion only on the answers a real
# Windows or file system gives, so every os.RemoveAll (every t.TempDir's
# cleanup) fails under Wine with "Invalid function" and fails its test.
# The test binaries are built with an overlay of Go's own
# internal/syscall/windows/at_windows.go that takes that fallback on
# STATUS_NOT_IMPLEMENTED too (Wine's limit, not eukhe's: a real Windows
# never needs it). When Go's file no longer has the line it patches, the
# overlay is left out and this says so.
#
# The binaries run without EUKHE_REQUIRE_TOOLS and CI, which Wine would
# hand them from this environment (.ci/run sets the first): the tools a
# Linux run requires (Python with IPython, Neovim, ...) are Linux
# programs, and none is installed for Windows in the Wine prefix, so
# each test that needs one skips here with its reason (counted below)
# instead of failing. What Wine itself lacks (symlinks, AF_UNIX, Unix
# programs) skips on Windows whatever these say (internal/testkit).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
overlay=()
at=$(go env GOROOT)/src/internal/syscall/windows/at_windows.go
if [ -f "$at" ] && sed 's/^\tcase STATUS_INVALID_INFO_CLASS, /\tcase STATUS_INVALID_INFO_CLASS, NTStatus(0xC0000002), /' "$at" >"$out/at_windows.go" &&
  ! cmp -s "$at" "$out/at_windows.go"; then
  printf '{"Replace":{"%s":"%s"}}' "$at" "$out/at_windows.go" >"$out/overlay.json"
  overlay=(-overlay "$out/overlay.json")
else
  echo "test/wine/units.sh: Go's at_windows.go has no line to patch: os.RemoveAll fails under Wine 8 (t.TempDir cleanups fail)" >&2
fi
for pkg in "$@"; do
  bin=$out/$(echo "$pkg" | tr / _).test.exe
  if ! GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c -trimpath "${overlay[@]}" -o "$bin" "./$pkg"; then
    echo "$pkg: the Windows test binary does not build"; status=1; continue
  fi
  log=$out/$(basename "$bin").log
  start=$SECONDS
  (cd "$pkg" && timeout 1200 env -u EUKHE_REQUIRE_TOOLS -u CI bash "$OLDPWD/test/wine/run.sh" "$bin" -test.v -test.count=1 -test.timeout 15m) >"$log" 2>&1
  if [ -n "${EUKHE_UNITS_LOGS:-}" ]; then mkdir -p "$EUKHE_UNITS_LOGS" && cp "$log" "$EUKHE_UNITS_LOGS/"; fi
  pass=$(grep -c '^--- PASS' "$log") fail=$(grep -c '^--- FAIL' "$log") skip=$(grep -c '^--- SKIP' "$log")
  echo "$pkg under Wine: $pass passed, $fail failed, $skip skipped ($((SECONDS - start)) s)"
  if [ "$fail" -gt 0 ]; then
    grep '^--- FAIL' "$log" | sed 's/^--- FAIL: /  failed: /'
    status=1
  fi
done
exit $status
