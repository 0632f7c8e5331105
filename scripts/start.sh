#!/usr/bin/env bash
# npm start: installs what is missing, builds the package (pkg/) and the demo page (www/dist)
# against it, then serves the demo with its scripted agent. PORT picks the port (default 3000,
# 0 for any free one); the server prints the URL.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

bash scripts/setup.sh
npm run build
# www depends on the built package (file:../pkg), so its install comes after the build.
bash scripts/setup.sh demo
npm --prefix www run build
exec node www/server.mjs
