#!/usr/bin/env bash
# A small read over stdio, measured by one raw JSON-RPC client
# (bench/mcp/mcpbench) in one run (each server in turn; MCPBENCH_FLAGS=-rr
# alternates calls between them), against:
#   bare        a go-sdk server whose only tool reads a file (bench/mcp/bare):
#               the floor of the SDK eukhe uses
#   filesystem  @modelcontextprotocol/server-filesystem's read_text_file (npm,
#               from test/mcp-peers)
#   eukhe       eukhe mcp's read (rows and a tag, seen lines recorded)
# on the same small file. Targets: eukhe within 1.1x of bare at p50, and at
# least 3x faster than filesystem.
# Usage: bench/mcp/run.sh [CALLS]
set -euo pipefail
cd "$(dirname "$0")/../.."
calls=${1:-3000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

peers=test/mcp-peers
fs="$peers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
if [ ! -f "$fs" ]; then
  echo "bench/mcp: server-filesystem is not installed; run: (cd $peers && npm ci)" >&2
  exit 1
fi
go build -o "$work/eukhe" ./cmd/eukhe
go build -o "$work/bare" ./bench/mcp/bare
go build -o "$work/mcpbench" ./bench/mcp/mcpbench

mkdir -p "$work/ws"
for i in $(seq 1 20); do echo "line $i of a small file read by every server"; done >"$work/ws/small.txt"
file="$work/ws/small.txt"
echo "file: $(wc -c <"$file") bytes, $(wc -l <"$file") lines; $calls calls to each server after 300 warm-up calls"

"$work/mcpbench" -n "$calls" -warmup 300 ${MCPBENCH_FLAGS:-} -expect "line 20" \
  "bare=read_file={\"path\":\"$file\"}=$work/bare" \
  "eukhe=read={\"path\":\"small.txt\"}=$work/eukhe mcp --root $work/ws" \
  "filesystem=read_text_file={\"path\":\"$file\"}=node $fs $work/ws" |
  awk '{ print } $1 == "eukhe" { e = $2 } $1 == "bare" { b = $2 } $1 == "filesystem" { f = $2 }
       END { printf "eukhe / bare p50: %.2f (target <= 1.1)\nfilesystem / eukhe p50: %.2f (target >= 3)\n", e / b, f / e }'
