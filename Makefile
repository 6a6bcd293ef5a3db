# The one test command CI runs (see README.md).
# test-vscode: the VS Code extension's tests (node's test runner, the
# vsix package among them) and ESLint, against
# the real eukhe binary.
# test-nvim-current: the Neovim end-to-end tests again on a current Neovim
# when EUKHE_NVIM_CURRENT names one (.ci/run fetches 0.10 with
# test/nvim/fetch-0.10.sh); the main run uses the machine's nvim.
# mcp-peers: the npm packages the MCP peer tests of cmd/eukhe drive
# (test/mcp-peers), installed from their lock as the extension's are.
# EUKHE_REQUIRE_TOOLS=1 (.ci/run sets it; CI=true does the same) makes
# every test whose tool is missing (git, rg, nvim, node, the peers) fail
# instead of skip.
.PHONY: test test-vscode test-nvim-current mcp-peers build bench fuzz

test: test-vscode mcp-peers
	go vet ./...
	go test -race -count=1 ./...
	$(MAKE) test-nvim-current

test-nvim-current:
	@if [ -n "$$EUKHE_NVIM_CURRENT" ]; then \
	  echo "Neovim end to end on $$($$EUKHE_NVIM_CURRENT --version | head -1)"; \
	  EUKHE_NVIM="$$EUKHE_NVIM_CURRENT" go test -count=1 -run 'Neovim|Review|Approval|Health|Missing|StartOne' ./cmd/eukhe ./editors/nvim; \
	fi

mcp-peers:
	cd test/mcp-peers && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; }

test-vscode:
	cd editors/vscode && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && npm test && npm run --silent lint

build:
	go build -o eukhe ./cmd/eukhe

bench:
	go test -run '^$$' -bench . -benchmem ./docs ./lsp ./agent/shell
	bash bench/commit.sh
	bash bench/search.sh
	bash bench/mcp/run.sh
	bash bench/nvim/run.sh

# A short run of every fuzz target; the seed corpora run in `make test`.
fuzz:
	go test -run '^$$' -fuzz FuzzParsePatch -fuzztime 30s ./docs
	go test -run '^$$' -fuzz FuzzScan -fuzztime 30s ./docs
	go test -run '^$$' -fuzz FuzzApply -fuzztime 30s ./docs
