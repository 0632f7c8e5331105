#!/usr/bin/env bash
# Installs what is missing, then runs every test suite in order and stops at the first failure.
# Each suite is listed here explicitly.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
# The tests' builds without debug info: a panic still names its file and line, and each wasm test
# binary is a seventh of the size, so wasm-bindgen-test-runner processes it in half the time (the
# core's wasm32 suite: 92 s, against 120 s with it).
export CARGO_PROFILE_DEV_DEBUG=0

suite() {
  echo
  echo "=== test: $1 (at ${SECONDS} s)"
}

suite "setup"
bash scripts/setup.sh

suite "gates: cargo fmt --check, cargo clippy -D warnings (native; wasm32 as a Rust web app builds it; wasm32 as the package builds it)"
cargo fmt --check
cargo fmt --check --manifest-path tests/from-rust/Cargo.toml
cargo clippy --all-targets -- -D warnings
cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings
# The package's wasm is `no_std` (Cargo.toml, `std`): its library alone, as scripts/build.sh builds
# it (the tests' dev-dependencies bring the standard library), and the binding with the tests, on
# std, and the declarations build (tsify).
cargo clippy --lib --target wasm32-unknown-unknown --no-default-features --features js-binding -- -D warnings
cargo clippy --all-targets --target wasm32-unknown-unknown --features js-binding -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown --no-default-features --features js-binding,ts-types -- -D warnings

suite "Rust core (native): cargo test"
cargo test

suite "build: pkg/"
bash scripts/build.sh

# Its tests import the pkg/ just built (web_storage_chromium loads the package beside the crate).
suite "gate: cargo clippy -D warnings on wasm32 with web-storage and js-interop"
cargo clippy --all-targets --target wasm32-unknown-unknown --features web-storage,js-interop -- -D warnings

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

# wasm-bindgen-test-runner 0.2.130's page server sometimes never answers one of the page's module
# requests (Chromium's net log shows it waiting for the response headers), so the page stays at
# "Loading scripts...". The webdriver capabilities use pageLoadStrategy "none", so such a page
# fails after WASM_BINDGEN_TEST_TIMEOUT instead of hanging for the 300 s page-load timeout, and a
# test binary that failed so, and only so, is run again (up to 8 times). A test that fails fails.
# (wasm-pack test runs the same runner: the Yew page's suite below goes through it too.)
retry_runner_flake() {
  local attempt output
  for attempt in 1 2 3 4 5 6 7 8; do
    if output="$("$@" 2>&1)"; then
      printf '%s\n' "$output"
      return 0
    fi
    if [[ "$output" != *"Loading scripts...Failed to detect test as having been run"* || "$attempt" == 8 ]]; then
      printf '%s\n' "$output"
      return 1
    fi
    echo "test.sh: $*: the runner's page never loaded its scripts (attempt $attempt); running it again"
  done
}
# `features` (js-binding unless set) are the crate's features for the tests.
browser_tests() {
  local test
  for test in "$@"; do
    WASM_BINDGEN_USE_BROWSER=1 retry_runner_flake cargo test --target wasm32-unknown-unknown --features "${features:-js-binding}" --test "$test" || return 1
  done
}

# The core's own tests (tests/core_*.rs, the same as natively) on wasm32, as a Rust web app
# builds the crate: default features, every JSON value in Rust. In Node only: the core touches no
# JavaScript, and Chromium runs the same V8 (the binding's tests below run in both).
suite "Rust core (wasm32) in Node: cargo test --target wasm32-unknown-unknown"
cargo test --target wasm32-unknown-unknown

# The binding's tests (tests/wasm_*.rs) with the package's feature, js-binding.
suite "Rust binding (wasm) in Node: cargo test --target wasm32-unknown-unknown --features js-binding"
cargo test --target wasm32-unknown-unknown --features js-binding

# The binding's reducer tests again, the same bodies, in a Chromium page: the binding as a browser
# loads it. (Its other suites, calls, queue, branches and the fuzz, go through the same binding
# code on the same V8: Node runs them.)
suite "Rust binding (wasm) in headless Chromium: the reducer tests"
browser_tests wasm_reducer

# The Rust web app features, against the package just built (pkg/index.js, which the tests import).
suite "Rust features web-storage and js-interop (wasm32) in Node: js_interop, web_storage without a window"
cargo test --target wasm32-unknown-unknown --features web-storage,js-interop --test js_interop --test web_storage_no_window

suite "web_storage in headless Chromium, in one page with the package's storage helpers"
features=web-storage,js-interop browser_tests web_storage_chromium

# The README's "From Rust": a user's crate tested with wasm-pack in Node and headless Chromium
# (wasm-pack uses the wasm-bindgen on PATH, never downloads: --mode no-install), with a target
# directory of its own: sharing the crate's, the linker meets two builds of js-sys. Its browser run
# retries the runner's page that never loads, as browser_tests does.
suite "a user's crate under wasm-pack: tests/from-rust (wasm-pack test --node, --headless --chrome)"
CARGO_TARGET_DIR="$root/target/from-rust" wasm-pack test --node --mode no-install tests/from-rust
CARGO_TARGET_DIR="$root/target/from-rust" retry_runner_flake wasm-pack test --headless --chrome --chromedriver "$CHROMEDRIVER" --mode no-install tests/from-rust

# The Yew chat page, its own crate outside the package's build: mounted in headless Chromium and
# driven through Send, Stop, Retry, Edit, "< 1/2 >" and a reload, its requests answered with the
# frames www/agent sends (agent-frames.json, first checked against the agent as it is now).
suite "the Yew chat page (examples/yew-chat) in headless Chromium: wasm-pack test --headless --chrome"
# The check replays the agent without its pace (under a second).
node examples/yew-chat/tests/record-agent.mjs --check
(cd examples/yew-chat && cargo fmt --check && cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings)
(cd examples/yew-chat && retry_runner_flake wasm-pack test --headless --chrome --mode no-install --chromedriver "$CHROMEDRIVER")

suite "README examples, v2 parts, JSON Patch, Redux, storage (Node and Chromium), the benchmark's baseline and load-trace breakdown, the fuzz's checks against pkg/: node --test"
node --test tests/js/ tests/fuzz/ bench/baseline.test.mjs bench/copy-floor.test.mjs bench/trace-breakdown.test.mjs

suite "storage in DOM test environments (jsdom, happy-dom): vitest"
node_modules/.bin/vitest run --config tests/vitest/vitest.config.mjs

suite "the protocol adapters against ai and @ag-ui/client: node --test tests/adapters/"
node --test tests/adapters/

suite "the server's request side (chat-session-reducer/server's applyRequest) against the real client on actions, ai-sdk and ag-ui, conflicts and bad bodies: node --test tests/server/request.test.mjs"
node --test tests/server/request.test.mjs

# PGlite always; PostgreSQL as a server the suite starts itself (initdb + postgres in a temporary
# directory), which must start here (setup.sh installs it): npm test never skips it.
suite "the server's SessionStore on PGlite and on a PostgreSQL server of its own: node --test tests/server/store.test.mjs"
REQUIRE_POSTGRES=1 node --test tests/server/store.test.mjs

# A redis-server of the suite's own (setup.sh installs it): npm test never skips it.
suite "the server on several instances: two createChatServer on one Redis (run log, stop across instances, a newer run superseding), against the real client: node --test tests/server/redis.test.mjs"
REQUIRE_REDIS=1 node --test tests/server/redis.test.mjs

# Two real demo processes (node www/server.mjs) on a Redis and a PostgreSQL of the suite's own.
# www/server.mjs imports the package through www's dependencies (file:../pkg): install them first.
suite "the demo on two instances (node www/server.mjs x2, one Redis, one Postgres, started by the suite) under faults: resume, Stop and delete across instances, SIGKILL (also before a run was ever stored), a lost lease, Redis restarted, Postgres down 5 s, 200 seeded runs with kills, cuts and stops (SERVER_RUNS, SERVER_SEED): node --test tests/server/instances.test.mjs"
bash scripts/setup.sh demo
REQUIRE_REDIS=1 REQUIRE_POSTGRES=1 node --test tests/server/instances.test.mjs

suite "the demo on two instances behind one port (scripts/instances.mjs, what npm run start:instances runs, on a Redis and a Postgres of the suite's own): a reply streamed, a Stop and a resume through the proxy's port only, landing on the other instance, stored as shown; an instance killed gets 502 JSON; SIGTERM stops the instances; the forwarding itself (body, cookie, status, streaming, a client abort): node --test tests/server/proxy.test.mjs"
REQUIRE_REDIS=1 REQUIRE_POSTGRES=1 node --test tests/server/proxy.test.mjs

suite "the demo on two instances behind nginx (setup.sh installs nginx-light), on docs/server.md's nginx config as written: a reply streamed unbuffered, a resume and a Stop through nginx, stored as shown: node --test tests/server/nginx.test.mjs"
REQUIRE_REDIS=1 REQUIRE_POSTGRES=1 node --test tests/server/nginx.test.mjs

suite "older history paged: GET {conversations}/{id}?before=&limit= on a store without page and on PGlite (a query by position), pages prepended back to the stored conversation: node --test tests/server/paging.test.mjs"
node --test tests/server/paging.test.mjs

suite "the server's runs against the real client: every ending of a run stored as the client shows it (3 protocols), a real streamText on MockLanguageModelV4 through an approval and an edit, the routes over node:http (bad input, owners, the owner cookie, resume, restart), 200 seeded runs cut by Stop, drops and failures: node --test tests/server/fold.test.mjs tests/server/stream-text.test.mjs tests/server/routes.test.mjs tests/server/seeded.test.mjs"
node --test tests/server/fold.test.mjs tests/server/stream-text.test.mjs tests/server/routes.test.mjs tests/server/seeded.test.mjs

# 100,000 random actions with every kind of hostile input, a few seconds (npm run fuzz runs
# 1,000,000).
suite "differential fuzz of pkg/ against bench/baseline.mjs: tests/fuzz/run.mjs"
node tests/fuzz/run.mjs 1 100000

suite "the built package as users install it: tests/consumers/run.mjs"
node tests/consumers/run.mjs

suite "the React hook in real consumers of the packed package: tests/react/run.mjs"
node tests/react/run.mjs

suite "assistant-ui on a session (chat-session-reducer/assistant-ui) under the real @assistant-ui/react 0.15.22 in a consumer of the packed package (Vitest + jsdom): conversion, callbacks, branches without phantom or collapsed siblings, a delta re-rendering only its row, rows updated in the commit that renders a change: tests/assistant-ui/run.mjs"
node tests/assistant-ui/run.mjs

suite "the Vue and Svelte bindings in real consumers of the packed package (Vite + Vue 3, Vite + Svelte 5) in headless Chromium: tests/bindings/run.mjs"
node tests/bindings/run.mjs

suite "the hook's resume in jsdom: 50 seeded runs per protocol (RESUME_RUNS=200 for the long loop), connections dropped and pages reloaded: node --test tests/react/resume.test.mjs"
node --test tests/react/resume.test.mjs

suite "the hook's conversations in the background in jsdom: switching while a reply streams, the thread list, 20 seeded runs per protocol switching at random chunk boundaries: node --test tests/react/conversations.test.mjs"
node --test tests/react/conversations.test.mjs

suite "the thread list on the server's conversations (createConversations remote) in jsdom against createChatServer on PGlite in memory: another profile of the owner lists and opens a conversation, another owner sees none, a run the tab does not hold, a restart's interrupted run: node --test tests/react/conversations-server.test.mjs"
node --test tests/react/conversations-server.test.mjs

suite "the hook's tabs (chat-session-reducer/tabs) in jsdom: one request per run, saves checked by revision, a closed tab's run taken over, a tampered entry, 50 seeded runs (TABS_RUNS=200 for the long loop): node --test tests/react/tabs.test.mjs"
node --test tests/react/tabs.test.mjs

# bench:ui's pages still stream and paint (1 size, 3 deltas, 1 run; figures printed, nothing timed is asserted).
suite "bench:ui smoke: each implementation's page streams a reply into 10 messages in headless Chromium: node bench/ui/run.mjs"
BENCH_UI_SIZES=10 BENCH_UI_DELTAS=3 BENCH_UI_WARM=1 BENCH_UI_RUNS=1 BENCH_UI_OUT="$(mktemp)" node bench/ui/run.mjs

suite "memory bounded in headless Chromium: switching among 5 conversations of 10,000 messages and 2,000 calls (chat-session-reducer/conversations) does not grow the heap after GC: node --test bench/ui/memory.test.mjs"
node --test bench/ui/memory.test.mjs

suite "the demo end to end in headless Chromium, with its several-tabs scenarios (two pages of one context, tests/e2e/tabs.mjs): tests/e2e/run.mjs"
bash scripts/setup.sh demo
npm --prefix www run build
node tests/e2e/run.mjs

echo
echo "=== test: all suites passed in ${SECONDS} s"
