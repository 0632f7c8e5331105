#!/usr/bin/env bash
# Builds the npm package into pkg/: Rust -> wasm -> wasm-bindgen glue -> wasm-opt -> one
# self-initialising ES module (see scripts/pack-pkg.mjs for the package layout).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# The version Cargo.toml pins (`wasm-bindgen = "=X.Y.Z"`): the CLI must match the crate.
wasm_bindgen_version="$(bash scripts/wasm-bindgen-version.sh)"
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wasm_bindgen_version"; then
  echo "build: wasm-bindgen $wasm_bindgen_version is required (run scripts/setup.sh)" >&2
  exit 1
fi
wasm_opt="$root/node_modules/.bin/wasm-opt"
if [[ ! -x "$wasm_opt" ]]; then
  echo "build: $wasm_opt is missing (run scripts/setup.sh)" >&2
  exit 1
fi

# What wasm-bindgen and wasm-opt write is kept in target/pkg-build/: the glue's golden copy is
# refreshed from it (node scripts/glue.mjs refresh) and tests/js/glue-golden.test.mjs compares it.
staging="$root/target/pkg-build"
rm -rf "$staging"
mkdir -p "$staging"

# js-binding: the JavaScript binding, which keeps every JSON value in JavaScript; the default
# features are the complete core's (Cargo.toml).
# The panic locations of the dependencies' code name their files under Cargo's registry; without
# the registry's path (the build machine's home directory) the wasm is smaller and the same on
# every machine.
remap=""
for registry in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do remap+=" --remap-path-prefix=$registry="; done
echo "build: cargo build --release --target wasm32-unknown-unknown --no-default-features --features js-binding"
RUSTFLAGS="${RUSTFLAGS:-}$remap" cargo build --release --target wasm32-unknown-unknown --lib --no-default-features --features js-binding

# --omit-default-module-path: the glue must not reference a .wasm file by URL; bundlers would
# try to resolve and emit it, and the package ships the bytes inline instead.
echo "build: wasm-bindgen --target web"
wasm-bindgen target/wasm32-unknown-unknown/release/chat_session_reducer.wasm \
  --target web --omit-default-module-path --out-dir "$staging/bindgen"

# The package's wasm has no standard library (Cargo.toml, `std`), and tsify, which writes the
# TypeScript types of the Rust model, needs it: the same binding built with `ts-types` (in a
# target directory of its own, so neither build undoes the other's) gives the declarations, and
# only them. Both builds export the same functions.
echo "build: cargo build --release --target wasm32-unknown-unknown --no-default-features --features js-binding,ts-types (the declarations)"
RUSTFLAGS="${RUSTFLAGS:-}$remap" cargo build --release --target wasm32-unknown-unknown --lib \
  --no-default-features --features js-binding,ts-types --target-dir target/declarations
wasm-bindgen target/declarations/wasm32-unknown-unknown/release/chat_session_reducer.wasm \
  --target web --omit-default-module-path --out-dir "$staging/declarations"
exported() { grep -o '^export function [A-Za-z_]*' "$1/chat_session_reducer.js"; }
if ! diff <(exported "$staging/bindgen") <(exported "$staging/declarations") >&2; then
  echo "build: the declarations build exports other functions than the package's" >&2
  exit 1
fi
cp "$staging/declarations/chat_session_reducer.d.ts" "$staging/bindgen/chat_session_reducer.d.ts"

# The features are the ones rustc's wasm32 target emits by default.
features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
  --enable-mutable-globals --enable-reference-types --enable-multivalue)

# The custom sections that only describe the build (names, producers, target features) are
# dropped from what users download. A new instance's memory is all zeros, and Rust never uses its
# first kilobyte (its data starts higher), which lets wasm-opt drop zero data and fold low
# constant addresses.
echo "build: wasm-opt -Oz"
"$wasm_opt" -Oz --converge --zero-filled-memory --low-memory-unused "${features[@]}" \
  --strip-debug --strip-producers --strip-target-features \
  "$staging/bindgen/chat_session_reducer_bg.wasm" -o "$staging/optimized.wasm"

# The glue and the wasm name each other's imports and exports (`__wbg_get_<hash>`, ...): one-
# or two-letter names make both smaller. wasm-opt prints the renaming as JSON; scripts/glue.mjs
# applies it to the glue.
echo "build: wasm-opt --minify-imports-and-exports-and-modules"
"$wasm_opt" "${features[@]}" --minify-imports-and-exports-and-modules \
  "$staging/optimized.wasm" -o "$staging/minified.wasm" >"$staging/renamed.json"

# The entry inlines the wasm as text, which this small module decodes (src/main/wasm-text.wat).
echo "build: wasm-opt src/main/wasm-text.wat"
"$wasm_opt" -Oz src/main/wasm-text.wat -o "$staging/text-decoder.wasm"

node scripts/pack-pkg.mjs "$staging/bindgen" "$staging/minified.wasm" "$staging/renamed.json" "$staging/text-decoder.wasm" "$root/pkg"

# Sizes as a user downloads them: raw, and gzip -9 (a typical CDN / server transfer size).
size_line() {
  local label="$1" file="$2"
  printf 'build: %-26s %8d bytes raw, %8d bytes gzip -9\n' "$label" \
    "$(wc -c <"$file")" "$(gzip -9 -c "$file" | wc -c)"
}
size_line "wasm (optimized)" "$staging/minified.wasm"
size_line "pkg/index.js (all of it)" "$root/pkg/index.js"
for module in "$root"/pkg/*/index.js; do
  size_line "pkg/${module#"$root/pkg/"}" "$module"
done
