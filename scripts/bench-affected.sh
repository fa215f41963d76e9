#!/usr/bin/env bash
# Times `ralph-gate compare` on a one-file change of a real Go project,
# affected-only (the default) against --all-packages, same binary, same
# range, in a fresh clone (so ralph-gate's cache starts empty):
#   1. --all-packages --no-cache, which also warms Go's build cache;
#   2. affected-only, --no-cache: the affected packages at both ends;
#   3. --all-packages, which keeps BASE's results per package in the cache;
#   4. affected-only again, now carrying the unaffected packages from the
#      cache: every package measured, the affected ones run at HEAD only.
# Go's test cache is cleared before each run; the ratio is step 3 over
# step 2, and step 3 over step 4.
#
# Usage: scripts/bench-affected.sh REPO BASE HEAD
# REPO is a git repository of a Go module (prometheus: see docs/performance.md
# for the range used in the README); BASE..HEAD should change one file.
# WARM=1 skips step 1 when the build cache is already warm for the range.
set -euo pipefail
repo=${1:?usage: scripts/bench-affected.sh REPO BASE HEAD}
base=${2:?usage: scripts/bench-affected.sh REPO BASE HEAD}
head=${3:?usage: scripts/bench-affected.sh REPO BASE HEAD}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/ralph-gate
(cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/ralph-gate)
base=$(git -C "$repo" rev-parse "$base")
head=$(git -C "$repo" rev-parse "$head")
git clone -q "$repo" "$tmp/repo"
cd "$tmp/repo"
git checkout -q "$base"
echo "range: $(git rev-parse --short "$base")..$(git rev-parse --short "$head"), $(git diff --name-only "$base" "$head" | wc -l) file(s) changed: $(git diff --name-only "$base" "$head" | head -3 | tr '\n' ' ')"

run() { # name, extra flags...
  local name=$1
  shift
  go clean -testcache
  local t0 t1
  t0=$(date +%s%N)
  set +e
  /usr/bin/time -f "%U %S" -o "$tmp/$name.cpu" "$bin" compare --format json "$@" "$base" "$head" >"$tmp/$name.json" 2>"$tmp/$name.err"
  local code=$?
  set -e
  t1=$(date +%s%N)
  local ms=$(((t1 - t0) / 1000000))
  echo "$ms" >"$tmp/$name.ms"
  python3 - "$tmp/$name.json" "$name" "$code" "$ms" "$tmp/$name.cpu" "$tmp/$name.err" <<'PY'
import json, sys
path, name, code, ms = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
u, s_ = (float(x) for x in open(sys.argv[5]).read().split()[-2:])
print(f"{name}: CPU (user+sys, every process) {u+s_:.0f} s")
try:
    r = json.load(open(path))
except Exception as e:
    print(f"{name}: exit {code}, {ms/1000:.1f} s, no report ({e}): " + open(sys.argv[6]).read()[-300:])
    sys.exit(0)
m = r.get("metrics") or {}
tests = [(m.get(s) or {}).get("test_count") for s in ("base", "head")]
scope = [n["message"] for n in r.get("notes", []) if "affected" in n["message"] or "every package" in n["message"]]
print(f"{name}: exit {code}, {ms/1000:.1f} s, verdict {r.get('verdict')}, tests BASE {tests[0]} HEAD {tests[1]}")
for s in scope:
    print("   " + s)
PY
}

if [ "${WARM:-0}" != 1 ]; then
  run all-packages-1 --all-packages --no-cache
fi
run affected-only --no-cache
run all-packages-2 --all-packages
run affected-cached
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
a = int(open(f"{d}/affected-only.ms").read())
w = int(open(f"{d}/all-packages-2.ms").read())
cpu = lambda n: sum(float(x) for x in open(f"{d}/{n}.cpu").read().split()[-2:])
print(f"ratio, wall: --all-packages {w/1000:.1f} s / affected-only {a/1000:.1f} s = {w/a:.1f}x")
print(f"ratio, CPU:  --all-packages {cpu('all-packages-2'):.0f} s / affected-only {cpu('affected-only'):.0f} s = {cpu('all-packages-2')/cpu('affected-only'):.1f}x")
c = int(open(f"{d}/affected-cached.ms").read())
print(f"ratio, wall, with the per-package cache: --all-packages {w/1000:.1f} s / affected-only {c/1000:.1f} s = {w/c:.1f}x")
PY
