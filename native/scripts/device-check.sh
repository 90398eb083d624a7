#!/usr/bin/env bash
# The CUDA check of @xtrust/native on a machine with a GPU but without this workspace's node_modules
# (a lent GPU machine has no registry to install from). Two steps:
#
#   bash native/scripts/device-check.sh prepare   # here, after `pnpm build` (needs npm's registry and nvcc)
#   bash native/scripts/device-check.sh run       # on the GPU machine, in the repository's root,
#                                                 # with .devcheck/ and native/build/Release carried
#
# `prepare` fills .devcheck/ (git-ignored): Node itself (xz) when the GPU machine may lack it, the
# flat node_modules that native's tests need (vitest, csv-parse, csv-stringify, ml-hclust at the
# lockfile's versions, xz), and the CUDA benchmark bundled into one file. `run` runs native's whole
# vitest suite (cuda.test.ts compares CUDA with the CPU kernels and the TS twins) and the benchmark
# `node apps/bench/dist/native/run.js --only cuda` (CUDA vs the CPU backend vs PyTorch on the same GPU),
# writing logs and JSON to $OUT (or .devcheck/out).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
dc=.devcheck

prepare() {
  [ -f native/build/Release/xtrust_native.node ] || { echo "native/build/Release/xtrust_native.node is missing: run the build first" >&2; exit 1; }
  [ -f native/build/Release/libxtrust_cuda.so ] || { echo "native/build/Release/libxtrust_cuda.so is missing: the build found no nvcc" >&2; exit 1; }
  [ -f apps/bench/dist/native/cuda.js ] || { echo "apps/bench/dist/native/cuda.js is missing: build apps/bench first" >&2; exit 1; }
  mkdir -p "$dc" && rm -rf "$dc/mods" "$dc/node_modules.tar.xz" "$dc/cuda-bench.mjs" && mkdir -p "$dc/mods"
  local pkgs=() name ver
  for name in vitest csv-parse csv-stringify ml-hclust; do
    ver="$(node -e "const y=require('fs').readFileSync('pnpm-lock.yaml','utf8');const m=y.match(new RegExp('\\n  '+process.argv[1]+'@([0-9][0-9.]*)[:(]'));if(!m)process.exit(1);console.log(m[1])" "$name")" ||
      { echo "no version of $name in pnpm-lock.yaml" >&2; exit 1; }
    pkgs+=("$name@$ver")
  done
  echo "flat node_modules: ${pkgs[*]}"
  (cd "$dc/mods" && echo '{"name":"xtrust-devcheck","private":true}' >package.json &&
    npm install --no-audit --no-fund --loglevel=error "${pkgs[@]}" >/dev/null)
  tar -C "$dc/mods" -cJf "$dc/node_modules.tar.xz" node_modules
  # Node itself, for a GPU machine without it (kept from an earlier prepare when it is this node).
  local nodebin
  nodebin="$(readlink -f "$(command -v node)")"
  if [ ! -f "$dc/node.xz" ] || [ "$(cat "$dc/node.version" 2>/dev/null)" != "$(node --version)" ]; then
    xz -T0 -6 -c "$nodebin" >"$dc/node.xz" && node --version >"$dc/node.version"
  fi
  local esbuild="$dc/mods/node_modules/.bin/esbuild"
  cat >"$dc/cuda-bench-entry.mjs" <<'JS'
import { writeFileSync } from 'node:fs';
import { backendInfo } from '@xtrust/native';
import { formatResults } from '../apps/bench/dist/harness/result.js';
import { machineInfo } from '../apps/bench/dist/harness/machine.js';
import { benchCuda } from '../apps/bench/dist/native/cuda.js';
const log = (l) => console.log(l);
console.log(`@xtrust/native: ${JSON.stringify(backendInfo())}`);
const results = await benchCuda({ log });
console.log(`\n${formatResults(results)}`);
if (process.argv[2]) writeFileSync(process.argv[2], `${JSON.stringify({ date: new Date().toISOString(), backend: backendInfo(), machine: machineInfo(), results }, null, 2)}\n`);
JS
  # The bundle must sit one folder below native/ (native/devcheck/) when it runs: @xtrust/native finds
  # build/Release/ beside the folder that holds its code.
  "$esbuild" "$dc/cuda-bench-entry.mjs" --bundle --platform=node --format=esm --outfile="$dc/cuda-bench.mjs" \
    --alias:@xtrust/native=./native/dist/index.js --alias:@xtrust/core=./packages/core/dist/index.js --log-level=warning
  rm -rf "$dc/cuda-bench-entry.mjs" "$dc/mods"
  du -ch "$dc"/* | tail -1
}

run() {
  local out="${OUT:-$root/$dc/out}"
  mkdir -p "$out"
  # The carried Node, when there is one: the same version as the one that built the addon.
  if [ -f "$dc/node.xz" ]; then
    mkdir -p /tmp/xtrust-node/bin
    if command -v xz >/dev/null; then xz -dc "$dc/node.xz" >/tmp/xtrust-node/bin/node
    else python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" "$dc/node.xz" /tmp/xtrust-node/bin/node; fi
    chmod +x /tmp/xtrust-node/bin/node && export PATH=/tmp/xtrust-node/bin:$PATH
  fi
  if [ ! -d node_modules/vitest ]; then
    if command -v xz >/dev/null; then tar -xJf "$dc/node_modules.tar.xz"
    else python3 -c "import tarfile,sys;tarfile.open(sys.argv[1]).extractall('.')" "$dc/node_modules.tar.xz"; fi
  fi
  {
    echo "node $(node --version); $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
    echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) × $(nproc)"
  } | tee "$out/machine.txt"
  local rc=0
  (cd native && node ../node_modules/vitest/vitest.mjs run --reporter=verbose 2>&1) | tee "$out/native-tests.log" || rc=1
  mkdir -p native/devcheck && cp "$dc/cuda-bench.mjs" native/devcheck/
  XTRUST_BENCH_PYTHON="${XTRUST_BENCH_PYTHON:-python3}" XTRUST_BENCH_PEERS_DIR="$root/apps/bench/src/native" \
    node native/devcheck/cuda-bench.mjs "$out/cuda-bench.json" 2>&1 | tee "$out/cuda-bench.log" || rc=1
  return $rc
}

case "${1:-}" in
  prepare) prepare ;;
  run) run ;;
  *) echo "usage: bash native/scripts/device-check.sh prepare|run" >&2; exit 2 ;;
esac
