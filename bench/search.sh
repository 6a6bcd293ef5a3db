#!/usr/bin/env bash
# grep and glob side by side with ripgrep and fd on Go's own source tree,
# warm cache, several runs each; prints the median wall time of each and the
# ratio eukhe / peer of the medians (and of the best runs, for reference).
# The grep rows time `eukhe tool grep`, a process like the peer's; the MCP
# rows time one grep call to a running `eukhe mcp`, as an agent makes it.
# Installs nothing: rg and fdfind are used when present.
# Usage: bench/search.sh [RUNS] [TREE]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
tree=${2:-$(go env GOROOT)/src}
bin=$(mktemp -d)/eukhe
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/eukhe

# once CMD: one run's wall time in microseconds.
once() {
  local s e
  s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
  echo $(( (e - s) / 1000 ))
}

ms() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

row() { # name eukhe-cmd... -- peer-cmd...
  local name=$1; shift
  local ours=() peer=()
  while [ "$1" != "--" ]; do ours+=("$1"); shift; done; shift
  peer=("$@")
  "${ours[@]}" >/dev/null 2>&1 || true; "${peer[@]}" >/dev/null 2>&1 || true # warm the cache
  # Alternate the two, so that load from elsewhere falls on both alike.
  local as=() bs=()
  for _ in $(seq "$runs"); do
    as+=("$(once "${ours[@]}")")
    bs+=("$(once "${peer[@]}")")
  done
  local a b a1 b1
  a=$(printf '%s\n' "${as[@]}" | median); b=$(printf '%s\n' "${bs[@]}" | median)
  a1=$(printf '%s\n' "${as[@]}" | sort -n | head -1); b1=$(printf '%s\n' "${bs[@]}" | sort -n | head -1)
  printf '| %-42s | %9s | %9s | %5s | %5s |\n' "$name" "$(ms "$a")" "$(ms "$b")" "$(ratio "$a" "$b")" "$(ratio "$a1" "$b1")"
}

# median: the middle of the numbers on stdin (the lower middle of an even count).
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "tree: $tree ($(find "$tree" -type f | wc -l) files), $(nproc) cores, median of $runs runs, $(date -u +%Y-%m-%d)"
echo
for _ in 1 2; do "$bin" tool grep --root "$tree" '{"pattern":"warm","literal":true}' >/dev/null; done # the tree into the page cache
echo "| search | eukhe ms (median) | peer ms (median) | ratio (median) | ratio (best) |"
echo "|---|---|---|---|---|"
grep_eukhe() { "$bin" tool grep --root "$tree" "$1"; }
if command -v rg >/dev/null; then
  rgn() { rg -n --hidden --no-require-git --no-config "$@" "$tree"; }
  row "grep literal ErrUnexpectedEOF vs rg" grep_eukhe '{"pattern":"ErrUnexpectedEOF","literal":true}' -- rgn -F ErrUnexpectedEOF
  row "grep [A-Z]+_RESUME vs rg" grep_eukhe '{"pattern":"[A-Z]+_RESUME"}' -- rgn '[A-Z]+_RESUME'
  row 'grep \w+Error\( vs rg' grep_eukhe '{"pattern":"\\w+Error\\("}' -- rgn '(?-u:\w)+Error\('
  row "grep -i errunexpectedeof vs rg" grep_eukhe '{"pattern":"errunexpectedeof","ignoreCase":true}' -- rgn -i errunexpectedeof
  # As an agent greps: one MCP call to a running eukhe mcp (no process
  # start, no session set-up), beside an rg process, run for run.
  go build -o "$(dirname "$bin")/searchbench" ./bench/searchbench
  mcprow() { # name searchbench-args...
    local name=$1; shift
    local out m r bm br
    out=$("$(dirname "$bin")/searchbench" -eukhe "$bin" -tree "$tree" -runs "$runs" "$@")
    read -r _ m _ r <<<"$(sed -n 1p <<<"$out")"
    read -r _ bm br <<<"$(sed -n 2p <<<"$out")"
    printf '| %-42s | %9s | %9s | %5s | %5s |\n' "$name" "$m" "$r" "$(ratio "$m" "$r")" "$(ratio "$bm" "$br")"
  }
  mcprow "MCP grep literal ErrUnexpectedEOF vs rg" -literal ErrUnexpectedEOF
  mcprow "MCP grep [A-Z]+_RESUME vs rg" '[A-Z]+_RESUME'
else
  echo "| (rg not installed: grep rows skipped) | | | | |"
fi
grepn() { grep -rn "$@" "$tree"; }
row "grep literal ErrUnexpectedEOF vs grep -rn" grep_eukhe '{"pattern":"ErrUnexpectedEOF","literal":true}' -- grepn -F ErrUnexpectedEOF
if command -v fdfind >/dev/null; then
  fd_sorted() { fdfind -H -t f -g '*_test.go' -0 "$tree" | xargs -0 stat -c '%Y %n' | sort -k1,1nr -k2 | head -n 200; }
  row "glob **/*_test.go vs fdfind + mtime sort" "$bin" tool glob --root "$tree" '{"pattern":"**/*_test.go"}' -- fd_sorted
else
  echo "| (fdfind not installed: glob row skipped) | | | | |"
fi
