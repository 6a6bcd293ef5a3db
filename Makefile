# The one test command CI runs (see README.md).
.PHONY: test build bench fuzz

test:
	go vet ./...
	go test -race -count=1 ./...

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
