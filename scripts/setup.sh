#!/usr/bin/env bash
# Installs what building and testing need, and only what is missing, so a second run is quick:
# the wasm32 Rust target, wasm-bindgen-cli (with wasm-bindgen-test-runner), the npm
# devDependencies (binaryen's wasm-opt, bundlers, TypeScript, playwright-core) and Debian's
# Chromium + ChromeDriver for the browser tests.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
wasm_bindgen_version="0.2.130"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "setup: rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# cargo installs into ~/.cargo/bin; make sure this script (and the caller, via test.sh) sees it.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wasm_bindgen_version" \
  || ! command -v wasm-bindgen-test-runner >/dev/null; then
  echo "setup: cargo install wasm-bindgen-cli --version $wasm_bindgen_version"
  cargo install wasm-bindgen-cli --version "$wasm_bindgen_version" --force
fi

# npm ci wipes node_modules, so run it only when the installed tree does not match package.json.
cd "$root"
if [[ ! -d node_modules ]] || ! npm ls --all >/dev/null 2>&1; then
  if [[ -f package-lock.json ]]; then
    echo "setup: npm ci"
    npm ci --no-audit --no-fund
  else
    echo "setup: npm install"
    npm install --no-audit --no-fund
  fi
fi

if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  sudo=()
  if [[ "$(id -u)" != 0 ]]; then sudo=(sudo); fi
  echo "setup: apt-get install chromium chromium-driver"
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi
