#!/usr/bin/env bash
# Times the built ralph-gate binary on a large real repository:
#   - per-commit: `ralph-gate analyze C^ C` for each of the last N first-parent
#     commits (whole process: start, open, diff, parse, render), p50/p95/max;
#   - range: `ralph-gate analyze HEAD~R HEAD` next to `git log -p HEAD~R..HEAD`;
#   - peak RSS of every run.
# Times and peak RSS are taken by scripts/benchrun around the process itself.
#
# Usage: scripts/bench-analyze.sh REPO [N=50] [R=200]
# REPO may be a bare or a normal clone with full history (e.g. prometheus/prometheus).
set -euo pipefail
repo=${1:?usage: scripts/bench-analyze.sh REPO [N] [R]}
n=${2:-50}
r=${3:-200}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/ralph-gate
(cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/ralph-gate && go build -o "$tmp/benchrun" ./scripts/benchrun)

# run LABEL CMD...: runs CMD with output discarded and appends "ms rss_kb" to
# $tmp/LABEL, measured by benchrun from the process itself (no shell, time(1)
# or date(1) start-up counted).
run() {
  local label=$1; shift
  "$tmp/benchrun" -- "$@" >>"$tmp/$label"
}

pct() { # pct FILE P -> the P-th percentile of column 1
  sort -n "$1" | awk -v p="$2" '{a[NR]=$1} END {i=int((NR*p+99)/100); if(i<1)i=1; print a[i]}'
}

git -C "$repo" rev-list --first-parent -n "$n" HEAD >"$tmp/commits"
# Warm the page cache so the first run is not a disk benchmark.
git -C "$repo" cat-file --batch-all-objects --batch-check >/dev/null
while read -r c; do
  git -C "$repo" rev-parse -q --verify "$c^" >/dev/null || continue
  run per "$bin" analyze --repo "$repo" --format json --fail-on none "$c^" "$c"
done <"$tmp/commits"

for i in 1 2 3; do
  run range "$bin" analyze --repo "$repo" --format json --fail-on none "HEAD~$r" HEAD
  run gitlog git -C "$repo" log -p "HEAD~$r..HEAD"
done

echo "repository: $repo ($(git -C "$repo" rev-list --count HEAD) commits, $(git -C "$repo" ls-tree -r HEAD | wc -l) files)"
echo "per-commit ($(wc -l <"$tmp/per") commits): p50 $(pct "$tmp/per" 50) ms, p95 $(pct "$tmp/per" 95) ms, max $(pct "$tmp/per" 100) ms"
echo "range HEAD~$r..HEAD: ralph-gate $(pct "$tmp/range" 50) ms (median of 3), git log -p $(pct "$tmp/gitlog" 50) ms"
awk '{print $2}' "$tmp/per" "$tmp/range" | sort -n | tail -n1 | awk '{printf "peak RSS: %.1f MB\n", $1/1024}'
