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

# npm ci wipes node_modules, so run it only when the tree it installed (npm's own record of it,
# node_modules/.package-lock.json) is older than the manifest or the lock. (`npm ls --all` is no
# test: it calls the tree invalid for a peer range an installed package does not meet, redis 6
# against assistant-stream's optional ^5, and npm ci ran again on each call.)
npm_install_if_needed() {
  local dir="$1" installed="$1/node_modules/.package-lock.json"
  if [[ ! "$installed" -nt "$dir/package.json" || ( -f "$dir/package-lock.json" && ! "$installed" -nt "$dir/package-lock.json" ) ]]; then
    if [[ -f "$dir/package-lock.json" ]]; then
      echo "setup: npm ci in $dir"
      (cd "$dir" && npm ci --no-audit --no-fund)
    else
      echo "setup: npm install in $dir"
      (cd "$dir" && npm install --no-audit --no-fund)
    fi
  fi
}
# Debian's packages, those missing, in one apt-get run: Chromium + ChromeDriver for the browser
# tests; PostgreSQL for the server store's tests (tests/server/postgres-server.mjs starts its own
# server from /usr/lib/postgresql/*/bin as the postgres user the package creates); Redis for the
# server's several-instances tests (tests/server/redis-server.mjs starts its own redis-server);
# nginx for the test of docs/server.md's nginx config (tests/server/nginx.test.mjs runs its own).
apt_install_missing() {
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
    # Installing redis-server, postgresql and nginx would start them as services (nginx on port 80)
    # where no policy-rc.d says not to: the tests start their own, so say it for this install.
    local policy=/usr/sbin/policy-rc.d added_policy=""
    if [[ ! -e "$policy" ]]; then
      printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null && "${sudo[@]}" chmod +x "$policy" && added_policy=1
    fi
    local status=0
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${apt_packages[@]}" || status=$?
    if [[ -n "$added_policy" ]]; then "${sudo[@]}" rm -f "$policy"; fi
    return "$status"
  fi
}

# Debian's packages and the npm tree download while the Rust tools below compile (CPU-bound):
# each in the background, its output shown once it ended, a failure failing the setup.
background_log="$(mktemp -d)"
trap 'rm -rf "$background_log"' EXIT
npm_install_if_needed "$root" >"$background_log/npm" 2>&1 &
npm_job=$!
apt_install_missing >"$background_log/apt" 2>&1 &
apt_job=$!

# cargo installs into ~/.cargo/bin; make sure this script sees it.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wasm_bindgen_version" \
  || ! command -v wasm-bindgen-test-runner >/dev/null; then
  echo "setup: cargo install wasm-bindgen-cli --version $wasm_bindgen_version"
  cargo install wasm-bindgen-cli --version "$wasm_bindgen_version" --force
fi

# wasm-pack runs the Yew chat page's tests (examples/yew-chat) and the user's-crate example
# (tests/from-rust) as the README shows it; pinned, built from crates.io, only when this version is
# missing. A debug build (68 s on 2 cores, against 125 s optimised): it only drives cargo and
# wasm-bindgen, so its own speed does not show.
wasm_pack_version="0.15.1"
if ! wasm-pack --version 2>/dev/null | grep -qx "wasm-pack $wasm_pack_version"; then
  echo "setup: cargo install wasm-pack --version $wasm_pack_version"
  cargo install wasm-pack --version "$wasm_pack_version" --locked --debug
fi

shown_when_done() {
  local job="$1" log="$2" status=0
  wait "$job" || status=$?
  cat "$log"
  if (( status )); then echo "setup: failed (exit $status): see above" >&2; exit "$status"; fi
}
shown_when_done "$npm_job" "$background_log/npm"
shown_when_done "$apt_job" "$background_log/apt"
if [[ "${1:-}" == demo ]]; then
  npm_install_if_needed "$root/www"
fi

