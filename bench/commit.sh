#!/usr/bin/env bash
# The same one-line change in each of 100 files, applied by `git apply` and
# by eukhe's all-or-nothing, fsync'd edit (bench/commitbench: docs.Tools.Edit
# with the disk Store and its intent journal, as eukhe mcp runs it, in
# process, after reading each file; and as one MCP `edit` call to a running
# `eukhe mcp`, headless, whose session read each file first), warm cache,
# several runs each; prints each side's median wall time and the ratio
# eukhe / git. The files are the first 100 of the Go tree's compiler SSA
# package that have 20 lines or more, else generated ones of about that size.
# Usage: bench/commit.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ssa=$(go env GOROOT)/src/cmd/compile/internal/ssa
mkdir -p "$work/old"
if [ -d "$ssa" ]; then
  for f in $(find "$ssa" -maxdepth 1 -name '*.go' -type f | sort); do
    [ "$(wc -l <"$f")" -ge 20 ] && cp "$f" "$work/old/"
    [ "$(find "$work/old" -type f | wc -l)" -ge 100 ] && break
  done
  source="$ssa"
fi
n=$(find "$work/old" -type f | wc -l)
if [ "$n" -lt 100 ]; then
  rm -f "$work"/old/*
  for i in $(seq -w 0 99); do
    awk -v f="$i" 'BEGIN { for (l = 1; l <= 2500; l++) printf "\tx%d := f(%d, \"line %d of file %s\")\n", l, l, l, f }' >"$work/old/f$i.go"
  done
  source="generated"
fi
bytes=$(cat "$work"/old/* | wc -c)

line=10
text='// changed by bench/commit.sh'

# The git patch: a copy with line 10 of each file replaced, diffed.
cp -r "$work/old" "$work/new"
for f in "$work"/new/*; do
  awk -v n="$line" -v t="$text" 'NR == n { print t; next } { print }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
(cd "$work" && git diff --no-index old new >git.patch) || true
# The eukhe patch: the same change, each section with its file's tag.
go build -o "$work/commitbench" ./bench/commitbench
"$work/commitbench" patch -root "$work/old" -line "$line" -text "$text" >"$work/eukhe.patch"

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
best() { sort -n | head -1; }

# Runs alternate, git then eukhe, so that load from elsewhere on the machine
# falls on both alike. Each run starts from the old tree (the reset is not
# timed); eukhe's time is its in-process edit, after reading each file.
: >"$work/git.ms"
: >"$work/eukhe.ms"
: >"$work/commit.ms"
: >"$work/mcp.ms"
go build -o "$work/eukhe" ./cmd/eukhe
for _ in $(seq "$runs"); do
  rm -rf "$work/tree" && cp -r "$work/old" "$work/tree" && sync
  s=$(date +%s%N)
  (cd "$work/tree" && git apply -p2 ../git.patch)
  e=$(date +%s%N)
  echo "scale=3; ($e - $s) / 1000000" | bc >>"$work/git.ms"
  diff -r "$work/tree" "$work/new" >/dev/null || { echo "git apply did not make the change" >&2; exit 1; }

  rm -rf "$work/tree" && cp -r "$work/old" "$work/tree"
  "$work/commitbench" run -pristine "$work/old" -root "$work/tree" -patch "$work/eukhe.patch" -runs 1 -journal "$work/journal" >"$work/run.out"
  awk '/^run/ { print $2 }' "$work/run.out" >>"$work/eukhe.ms"
  awk '/^run/ { print $5 }' "$work/run.out" >>"$work/commit.ms"
  diff -r "$work/tree" "$work/new" >/dev/null || { echo "eukhe did not make the same change" >&2; exit 1; }

  rm -rf "$work/tree" && cp -r "$work/old" "$work/tree" && sync
  "$work/commitbench" mcp -eukhe "$work/eukhe" -root "$work/tree" -patch "$work/eukhe.patch" -state "$work/state" >"$work/run.out"
  awk '/^mcp/ { print $2 }' "$work/run.out" >>"$work/mcp.ms"
  diff -r "$work/tree" "$work/new" >/dev/null || { echo "eukhe mcp did not make the same change" >&2; exit 1; }
done
ratio() { echo "scale=2; $1 / $2" | bc; }
g_med=$(median <"$work/git.ms"); g_best=$(best <"$work/git.ms")
e_med=$(median <"$work/eukhe.ms"); e_best=$(best <"$work/eukhe.ms")
c_med=$(median <"$work/commit.ms"); c_best=$(best <"$work/commit.ms")
m_med=$(median <"$work/mcp.ms"); m_best=$(best <"$work/mcp.ms")

echo "100 files ($source), $bytes bytes, one line changed in each; $(nproc) cores, $runs runs each, alternating; $(date -u +%Y-%m-%d)"
echo
echo "|                                          | median ms | best ms | ratio to git (median, best) |"
echo "|---|---|---|---|"
printf '| %-40s | %9s | %7s | %s |\n' "git apply" "$g_med" "$g_best" "1, 1"
printf '| %-40s | %9s | %7s | %s |\n' "eukhe edit (parse, check, commit, fsync)" "$e_med" "$e_best" "$(ratio "$e_med" "$g_med"), $(ratio "$e_best" "$g_best")"
printf '| %-40s | %9s | %7s | %s |\n' "  of which Disk.Commit" "$c_med" "$c_best" "$(ratio "$c_med" "$g_med"), $(ratio "$c_best" "$g_best")"
printf '| %-40s | %9s | %7s | %s |\n' "one MCP edit call to eukhe mcp" "$m_med" "$m_best" "$(ratio "$m_med" "$g_med"), $(ratio "$m_best" "$g_best")"
