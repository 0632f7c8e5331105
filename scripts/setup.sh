#!/usr/bin/env bash
# Installs what building and testing need, and only what is missing, so a second run is quick:
# the wasm32 Rust target, wasm-bindgen-cli (with wasm-bindgen-test-runner), wasm-pack, the npm
# devDependencies (binaryen's wasm-opt, bundlers, TypeScript, playwright-core, PGlite and pg),
# Debian's Chromium + ChromeDriver for the browser tests and PostgreSQL for the store's.
#
#   scripts/setup.sh        the toolchain and the root's npm devDependencies
#   scripts/setup.sh demo   also the demo's (www/) npm dependencies; www depends on the built
#                           package (file:../pkg), so run it after scripts/build.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
wasm_bindgen_version="$(bash "$root/scripts/wasm-bindgen-version.sh")"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "setup: rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# cargo installs into ~/.cargo/bin; make sure this script sees it.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wasm_bindgen_version" \
  || ! command -v wasm-bindgen-test-runner >/dev/null; then
  echo "setup: cargo install wasm-bindgen-cli --version $wasm_bindgen_version"
  cargo install wasm-bindgen-cli --version "$wasm_bindgen_version" --force
fi

# wasm-pack runs the Yew chat page's tests (examples/yew-chat) and the user's-crate example
# (tests/from-rust) as the README shows it; pinned, built from crates.io (about 3 minutes on 2
# cores), only when this version is missing.
wasm_pack_version="0.15.1"
if ! wasm-pack --version 2>/dev/null | grep -qx "wasm-pack $wasm_pack_version"; then
  echo "setup: cargo install wasm-pack --version $wasm_pack_version"
  cargo install wasm-pack --version "$wasm_pack_version" --locked
fi

# npm ci wipes node_modules, so run it only when the installed tree does not match package.json.
npm_install_if_needed() {
  local dir="$1"
  if [[ ! -d "$dir/node_modules" ]] || ! (cd "$dir" && npm ls --all >/dev/null 2>&1); then
    if [[ -f "$dir/package-lock.json" ]]; then
      echo "setup: npm ci in $dir"
      (cd "$dir" && npm ci --no-audit --no-fund)
    else
      echo "setup: npm install in $dir"
      (cd "$dir" && npm install --no-audit --no-fund)
    fi
  fi
}
npm_install_if_needed "$root"
if [[ "${1:-}" == demo ]]; then
  npm_install_if_needed "$root/www"
fi

# Debian's packages, those missing, in one apt-get run: Chromium + ChromeDriver for the browser
# tests; PostgreSQL for the server store's tests (tests/server/postgres-server.mjs starts its own
# server from /usr/lib/postgresql/*/bin as the postgres user the package creates); Redis for the
# server's several-instances tests (tests/server/redis-server.mjs starts its own redis-server);
# nginx for the test of docs/server.md's nginx config (tests/server/nginx.test.mjs runs its own).
apt_packages=()
if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  apt_packages+=(chromium chromium-driver)
fi
if ! compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null; then
  apt_packages+=(postgresql)
fi
if [[ ! -x /usr/bin/redis-server ]]; then
  apt_packages+=(redis-server)
fi
if [[ ! -x /usr/sbin/nginx ]]; then
  apt_packages+=(nginx-light)
fi
if (( ${#apt_packages[@]} )); then
  sudo=()
  if [[ "$(id -u)" != 0 ]]; then sudo=(sudo); fi
  echo "setup: apt-get install ${apt_packages[*]}"
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${apt_packages[@]}"
fi
