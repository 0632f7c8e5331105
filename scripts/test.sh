#!/usr/bin/env bash
# Installs what is missing, then runs every test suite in order and stops at the first failure.
# Each suite is listed here explicitly.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

suite() {
  echo
  echo "=== test: $1"
}

suite "setup"
bash scripts/setup.sh

suite "Rust core (native): cargo test"
cargo test

suite "build: pkg/"
bash scripts/build.sh

# Against the declarations just built into pkg/, which the sources import by the package's name.
suite "JavaScript type check of src/: tsc -p scripts/tsconfig.json"
node_modules/.bin/tsc -p scripts/tsconfig.json

# The binding's tests through wasm-bindgen-test-runner (installed with wasm-bindgen-cli):
# first in Node, its default, then in headless Chromium through ChromeDriver
# (WASM_BINDGEN_USE_BROWSER; headless unless NO_HEADLESS is set; CHROMEDRIVER picks the driver;
# WASM_BINDGEN_TEST_WEBDRIVER_JSON the Chromium binary and flags).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER=/usr/bin/chromedriver
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$root/scripts/chromium-webdriver.json"

# The core's own tests (tests/core_*.rs, the same as natively) on wasm32, as a Rust web app
# builds the crate: default features, every JSON value in Rust.
suite "Rust core (wasm32) in Node: cargo test --target wasm32-unknown-unknown"
cargo test --target wasm32-unknown-unknown

suite "Rust core (wasm32) in headless Chromium: the same tests"
WASM_BINDGEN_USE_BROWSER=1 cargo test --target wasm32-unknown-unknown

# The binding's tests (tests/wasm_*.rs) with the package's feature, js-binding.
suite "Rust binding (wasm) in Node: cargo test --target wasm32-unknown-unknown --features js-binding"
cargo test --target wasm32-unknown-unknown --features js-binding

# The reducer's tests run again, the same bodies, in Chromium.
suite "Rust binding (wasm) in headless Chromium: the same reducer tests"
WASM_BINDGEN_USE_BROWSER=1 cargo test --target wasm32-unknown-unknown --features js-binding --test wasm_reducer --test wasm_calls --test wasm_fuzz

suite "README examples, v2 parts, JSON Patch, Redux, storage (Node and Chromium), the benchmark's baseline and load-trace breakdown, the fuzz's checks against pkg/: node --test"
node --test tests/js/ tests/fuzz/ bench/baseline.test.mjs bench/copy-floor.test.mjs bench/trace-breakdown.test.mjs

suite "storage in DOM test environments (jsdom, happy-dom): vitest"
node_modules/.bin/vitest run --config tests/vitest/vitest.config.mjs

suite "the protocol adapters against ai and @ag-ui/client: node --test tests/adapters/"
node --test tests/adapters/

# 100,000 random actions with every kind of hostile input, a few seconds (npm run fuzz runs
# 1,000,000).
suite "differential fuzz of pkg/ against bench/baseline.mjs: tests/fuzz/run.mjs"
node tests/fuzz/run.mjs 1 100000

suite "the built package as users install it: tests/consumers/run.mjs"
node tests/consumers/run.mjs

suite "the React hook in real consumers of the packed package: tests/react/run.mjs"
node tests/react/run.mjs

suite "the demo end to end in headless Chromium: tests/e2e/run.mjs"
bash scripts/setup.sh demo
npm --prefix www run build
node tests/e2e/run.mjs
