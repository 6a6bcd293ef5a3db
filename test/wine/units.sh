#!/usr/bin/env bash
# test/wine/units.sh PKG...: builds each package's Windows test binary and
# runs it under Wine (run.sh), then prints, per package, how many tests
# passed, failed and skipped, and the names of the failures. It exits 1
# when any failed. Not yet part of make test (guide/platforms.md).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for pkg in "$@"; do
  bin=$out/$(echo "$pkg" | tr / _).test.exe
  if ! GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c -trimpath -o "$bin" "./$pkg"; then
    echo "$pkg: the Windows test binary does not build"; status=1; continue
  fi
  log=$out/$(basename "$bin").log
  (cd "$pkg" && timeout 1200 bash "$OLDPWD/test/wine/run.sh" "$bin" -test.v -test.count=1 -test.timeout 15m) >"$log" 2>&1
  pass=$(grep -c '^--- PASS' "$log") fail=$(grep -c '^--- FAIL' "$log") skip=$(grep -c '^--- SKIP' "$log")
  echo "$pkg under Wine: $pass passed, $fail failed, $skip skipped"
  if [ "$fail" -gt 0 ]; then
    grep '^--- FAIL' "$log" | sed 's/^--- FAIL: /  failed: /'
    status=1
  fi
done
exit $status
