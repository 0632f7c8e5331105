#!/usr/bin/env bash
# npm start: installs what is missing, builds the package (pkg/) and the demo page (www/dist)
# against it, then serves the demo with its scripted agent. PORT picks the port (default 3000,
# 0 for any free one); the server prints the URL.
# npm run start:instances (`start.sh instances`): the same build, then the demo on INSTANCES (2)
# instances behind one round-robin port (scripts/instances.mjs); needs REDIS_URL and DATABASE_URL.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

if [[ "${1:-}" == instances && ( -z "${REDIS_URL:-}" || -z "${DATABASE_URL:-}" ) ]]; then
  # Checked before the build (a minute) so the message comes first; scripts/instances.mjs says the same.
  exec node scripts/instances.mjs
fi

bash scripts/setup.sh
npm run build
# www depends on the built package (file:../pkg), so its install comes after the build.
bash scripts/setup.sh demo
npm --prefix www run build
if [[ "${1:-}" == instances ]]; then exec node scripts/instances.mjs; fi
exec node www/server.mjs
