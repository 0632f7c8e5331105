#!/usr/bin/env bash
# `npm run fuzz -- [seed] [count] [--options]`: the differential fuzz (its arguments go to
# tests/fuzz/run.mjs), then the adapters' fuzz, 100,000 chunks, events and frames per protocol.
set -euo pipefail
cd "$(dirname "$0")/.."
node tests/fuzz/run.mjs "$@"
npm run --silent fuzz:adapters
