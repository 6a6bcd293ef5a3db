#!/usr/bin/env bash
# The Neovim edit benchmark of issue 7: an edit of 10 open documents through
# real headless Neovim, landing verified, timed from the eukhe/tool request
# to its reply; prints p50 and p99 over the measured edits.
#
#   bench/nvim/run.sh [EDITS]          (default 200, after 10 warm-up edits)
#   EUKHE_NVIM=$(bash test/nvim/fetch-0.10.sh) bench/nvim/run.sh   (Neovim 0.10)
#   BENCH_DEBOUNCE=0 bench/nvim/run.sh  (the client's debounce_text_changes, ms)
#   BENCH_PAUSE=500 bench/nvim/run.sh    (idle ms before each edit, untimed)
#   BENCH_PLUGIN=$PWD/editors/nvim bench/nvim/run.sh  (with the plugin's LuaJIT fix and applyEdit check)
set -euo pipefail
cd "$(dirname "$0")/../.."
edits=${1:-200}
nvim=${EUKHE_NVIM:-nvim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/eukhe" ./cmd/eukhe
mkdir "$work/ws"
for i in $(seq 0 9); do
  for l in $(seq 1 100); do echo "f$i line $l"; done >"$work/ws/f$i.txt"
done
EUKHE_BIN="$work/eukhe" EUKHE_ROOT="$work/ws" EUKHE_OUT="$work/out.json" \
  BENCH_EDITS="$edits" BENCH_WARMUP="${BENCH_WARMUP:-10}" BENCH_PAUSE="${BENCH_PAUSE:-0}" \
  XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" XDG_DATA_HOME="$work/data" \
  timeout 1800 "$nvim" --headless --clean -n -i NONE -c "luafile bench/nvim/edit10.lua" </dev/null >"$work/nvim.log" 2>&1 \
  || { cat "$work/nvim.log" >&2; exit 1; }
python3 - "$work/out.json" "$nvim" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
if r.get("error"):
    sys.exit("bench/nvim: " + r["error"])
t = sorted(r["times"])
q = lambda p: t[min(len(t) - 1, int(p * len(t)))]
print("Neovim %s, %d edits of 10 open documents, debounce %s, %d ms idle before each: p50 %.1f ms, p99 %.1f ms, min %.1f ms, max %.1f ms"
      % (r["nvim"], len(t), r["debounce"], r["pause"], q(0.5), q(0.99), t[0], t[-1]))
PY
