#!/usr/bin/env bash
# Prints the wasm-bindgen version the crate pins in Cargo.toml (`wasm-bindgen = "=X.Y.Z"`, or
# `wasm-bindgen = { version = "=X.Y.Z", ... }`), the one place it is written: the CLI that
# scripts/setup.sh installs and scripts/build.sh runs must be the same version.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$(sed -nE 's/^wasm-bindgen *= *(\{.*version *= *)?"=([0-9]+\.[0-9]+\.[0-9]+)".*$/\2/p' "$root/Cargo.toml")"
if [[ -z "$version" ]]; then
  echo "Cargo.toml: no exact wasm-bindgen version (wasm-bindgen = \"=X.Y.Z\")" >&2
  exit 1
fi
echo "$version"
