#!/usr/bin/env bash
# Measures `ralph-gate compare` on a real Go project:
#   1. a commit that deletes a test file: exit code, findings, metrics, checkout
#      untouched, second run from the cache;
#   2. compare's first run (tamper check included) against running the same test
#      command by hand at both ends (go test -json -coverprofile ./... in a
#      worktree of BASE and of HEAD), Go's test cache cleared before each;
#   3. the cached re-run time.
#
# Usage: scripts/bench-compare.sh REPO [TEST_FILE]
# REPO is a git repository of a Go module (e.g. a clone of google/go-cmp); it is
# cloned into a temp dir first, so it is never modified.
set -euo pipefail
src=${1:?usage: scripts/bench-compare.sh REPO [TEST_FILE]}
victim=${2:-cmp/cmpopts/util_test.go}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/ralph-gate
(cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/ralph-gate)
git clone -q "$src" "$tmp/repo"
cd "$tmp/repo"
git config user.email bench@example.com
git config user.name bench
base=$(git rev-parse HEAD)
git rm -q "$victim"
git commit -qm "bench: delete $victim"
status_before=$(git status --porcelain; git rev-parse HEAD; git stash list; git branch)

ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

echo "== 1. compare on a commit that deletes $victim"
t=$(date +%s%N)
set +e
go clean -testcache
"$bin" compare --format json "$base" HEAD >"$tmp/first.json" 2>"$tmp/first.err"
code=$?
set -e
first_ms=$(ms "$t")
python3 - "$tmp/first.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
kinds = sorted({(f["type"], f["severity"]) for f in r["findings"] if f["net"]})
print("   findings:", ", ".join(f"{t} ({s})" for t, s in kinds))
b, h = r["metrics"]["base"], r["metrics"]["head"]
print(f"   test_count {b.get('test_count')} -> {h.get('test_count')}, coverage {b.get('coverage_percentage'):.2f}% -> {h.get('coverage_percentage'):.2f}%")
print("   tamper check:", r.get("tamper_check"))
PY
echo "   exit code $code (want 1), $first_ms ms"
status_after=$(git status --porcelain; git rev-parse HEAD; git stash list; git branch)
[ "$status_before" = "$status_after" ] && echo "   checkout untouched: yes" || echo "   checkout untouched: NO"
echo "   worktrees left: $(( $(git worktree list | wc -l) - 1 ))"

t=$(date +%s%N)
"$bin" compare --format json "$base" HEAD >"$tmp/second.json" 2>/dev/null || true
echo "== 3. cached re-run: $(ms "$t") ms ($(grep -c 'from the cache' "$tmp/second.json") ends from the cache)"

echo "== 2. first run against the tests by hand at both ends (no caches, 3 runs each, median)"
byhand() {
  local d=$tmp/wt
  for c in "$base" HEAD; do
    rm -rf "$d"; git worktree add -q --detach "$d" "$c"
    (cd "$d" && go test -json -coverprofile="$tmp/c.out" ./... >/dev/null 2>&1 || true)
    git worktree remove --force "$d"
  done
}
go test ./... >/dev/null 2>&1 || true # warm the build cache for both
hand=(); gate=()
for i in 1 2 3; do
  go clean -testcache; t=$(date +%s%N); byhand; hand+=("$(ms "$t")")
  go clean -testcache; t=$(date +%s%N); "$bin" compare --no-cache --format json "$base" HEAD >/dev/null 2>&1 || true; gate+=("$(ms "$t")")
done
med() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
h=$(med "${hand[@]}"); g=$(med "${gate[@]}")
echo "   by hand (worktree + go test at BASE, then HEAD): $h ms; ralph-gate compare --no-cache (tamper check included): $g ms"
python3 -c "print(f'   ratio: {$g/$h:.2f}x (target <= 1.3x; both run the ends one after the other; compare runs only the packages the range affects)')"
