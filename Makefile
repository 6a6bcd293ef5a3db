# The one test command CI runs (see README.md).
# test-vscode: the VS Code extension's tests (node's test runner), against
# the real eukhe binary.
.PHONY: test test-vscode build bench fuzz

test: test-vscode
	go vet ./...
	go test -race -count=1 ./...

test-vscode:
	cd editors/vscode && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && npm test

build:
	go build -o eukhe ./cmd/eukhe

bench:
	go test -run '^$$' -bench . -benchmem ./docs
	bash bench/commit.sh
	bash bench/mcp/run.sh

# A short run of every fuzz target; the seed corpora run in `make test`.
fuzz:
	go test -run '^$$' -fuzz FuzzParsePatch -fuzztime 30s ./docs
	go test -run '^$$' -fuzz FuzzScan -fuzztime 30s ./docs
	go test -run '^$$' -fuzz FuzzApply -fuzztime 30s ./docs
