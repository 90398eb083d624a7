#!/usr/bin/env bash
# The transformer model kit's one command (root: `npx -y pnpm@10 models:build [--quick] [--distil]`):
# builds @xtrust/datasets, exports the corpora as JSONL, then trains and exports every model with
# Debian's /usr/bin/python3 + torch (run `bash models/transformers/setup.sh` once first).
set -euo pipefail
# `pnpm models:build -- --quick` hands the "--" over as an argument: drop it.
if [ "${1:-}" = "--" ]; then shift; fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
start=$(date +%s)
npx -y pnpm@10 turbo run build --filter=@xtrust/datasets --output-logs=errors-only
node "$here/export-corpora.mjs"
nice -n 10 /usr/bin/python3 "$here/build.py" "$@"
echo "models:build finished in $(( $(date +%s) - start )) s"
