# The one test command CI runs (see README.md).
# test-vscode: the VS Code extension's tests (node's test runner, the
# vsix package among them) and ESLint, against
# the real eukhe binary.
# test-nvim-current: the Neovim end-to-end tests again on a current Neovim
# when EUKHE_NVIM_CURRENT names one (.ci/run fetches 0.10 with
# test/nvim/fetch-0.10.sh); the main run uses the machine's nvim.
# mcp-peers, lspclient: the npm packages the MCP peer tests of cmd/eukhe
# (test/mcp-peers) and the plain LSP client tests (test/lspclient) drive,
# installed from their locks as the extension's are.
# test/vscode-real (run by go test ./...): a real VS Code (code-server)
# in headless Chromium; test/vscode-real/setup.sh installs it (.ci/run
# runs it; it needs root for apt).
# lint: go vet and staticcheck (run from the module proxy at a pinned
# version: nothing to install by hand).
# EUKHE_REQUIRE_TOOLS=1 (.ci/run sets it; CI=true does the same) makes
# every test whose tool is missing (git, rg, nvim, node, the peers) fail
# instead of skip.
# dist: the release archives, per-target VS Code packages and SHA256SUMS
# in dist/ (release/dist.sh), checked by release/check.sh.
# cross: go vet for the other operating systems (the builds are dist's).
# test/wine (run by go test ./...): eukhe.exe mcp under Wine; needs wine64
# and mingw-w64 (.ci/run installs them).
# test-windows: the Windows test binaries of docs, gate, gate/route,
# gate/confine, agent/shell, agent, agent/transcript, agent/urls and
# agent/roots under Wine, with their counts and seconds. All pass (their
# Unix-only tests skip saying why; guide/platforms.md has the counts). Not yet
# part of test: about 13 minutes on 2 busy cores (one Wine prefix serves every
# package, test/wine/run.sh; a new one adds ~16 s).
.PHONY: test test-vscode test-nvim-current mcp-peers lspclient lint build bench fuzz dist cross test-windows

STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2

test: test-vscode mcp-peers lspclient lint cross dist
	go test -race -count=1 -timeout 60m ./...
	$(MAKE) test-nvim-current

lint:
	go vet ./...
	go run $(STATICCHECK) ./...

test-nvim-current:
	@if [ -n "$$EUKHE_NVIM_CURRENT" ]; then \
	  echo "Neovim end to end on $$($$EUKHE_NVIM_CURRENT --version | head -1)"; \
	  EUKHE_NVIM="$$EUKHE_NVIM_CURRENT" go test -count=1 -run 'Neovim|Review|Approval|Health|Missing|StartOne' ./cmd/eukhe ./editors/nvim; \
	fi

mcp-peers:
	cd test/mcp-peers && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; }

lspclient:
	cd test/lspclient && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; }

test-vscode:
	cd editors/vscode && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && npm test && npm run --silent lint

build:
	go build -o eukhe ./cmd/eukhe

dist:
	bash release/dist.sh

# One architecture per other OS: vet's checks do not depend on it, and
# dist builds every pair.
CROSS_VET = darwin/arm64 windows/amd64 freebsd/amd64
cross:
	@set -e; for t in $(CROSS_VET); do echo "go vet $$t"; GOOS=$${t%/*} GOARCH=$${t#*/} go vet ./...; done

test-windows:
	bash test/wine/units.sh docs gate gate/route gate/confine agent/shell agent agent/transcript agent/urls agent/roots

bench:
	go test -run '^$$' -bench . -benchmem ./docs ./lsp ./agent/shell
	bash bench/commit.sh
	bash bench/search.sh
	bash bench/mcp/run.sh
	bash bench/nvim/run.sh
	go build -o /tmp/eukhe-soak ./cmd/eukhe && go run ./bench/soakbench -eukhe /tmp/eukhe-soak

# A short run of every fuzz target of every package, found by name
# (FUZZTIME each); the seed corpora run in `make test`.
FUZZTIME ?= 30s
fuzz:
	@set -e; for pkg in $$(go list ./...); do \
	  for f in $$(go test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f"; \
	    go test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done
