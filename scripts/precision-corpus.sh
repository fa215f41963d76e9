#!/usr/bin/env bash
# The precision benchmark on real history: `ralph-gate analyze --format json
# --fail-on high PARENT COMMIT` on every commit of testdata/precision/corpus.tsv
# (maintainer-merged first-parent commits of public repositories, each analyzed
# alone, as a pre-push hook or a pull request would see it), two at a time.
#
# Usage: scripts/precision-corpus.sh MIRRORDIR [OUT=./precision-out]
#   env JOBS (2), FAIL_ON (high), CORPUS (testdata/precision/corpus.tsv),
#   LABELS (testdata/precision/labels/commits.tsv; empty: no comparison)
#
# Writes OUT/results.jsonl (one line per commit: repo, sha, exit code, verdict,
# the blocking findings), OUT/summary.txt (commits, blocks, block rate and
# errors per repository, per language and overall; also printed),
# OUT/blocks.tsv (one line per blocking finding, by repository) and
# OUT/errors.tsv. A commit whose analysis exits 2 or 3, times out or writes a
# report that disagrees with its exit code is an error, listed and never read as
# a pass; the script then exits 1, after writing everything.
#
# MIRRORDIR holds one git directory per repository of
# testdata/precision/repos.tsv, found as OWNER+NAME/repo (the fetch tool's
# snapshots), OWNER+NAME.git or OWNER+NAME. Bare directories are fine:
# analyze reads git objects only. Without the fetch tool:
#   mkdir -p MIRRORDIR
#   grep -v '^#' testdata/precision/repos.tsv | while IFS=$'\t' read -r repo url _; do
#     git clone --mirror "$url" "MIRRORDIR/${repo/\//+}.git"
#   done
# A newer clone holds every corpus commit (they are on the default branch's
# first-parent history up to the recorded snapshot HEAD).
set -euo pipefail
mirrors=${1:?usage: scripts/precision-corpus.sh MIRRORDIR [OUT]}
out=${2:-precision-out}
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$here/testdata/precision/corpus.tsv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$tmp/ralph-gate" ./cmd/ralph-gate &&
  go build -o "$tmp/precisionrun" ./scripts/precisionrun)
echo "ralph-gate $(cd "$here" && git rev-parse --short HEAD 2>/dev/null || echo '?'), $(grep -vc '^#' "$corpus") commits of $corpus" >&2
"$tmp/precisionrun" -bin "$tmp/ralph-gate" -mirrors "$mirrors" -corpus "$corpus" -out "$out" \
  -jobs "${JOBS:-2}" -fail-on "${FAIL_ON:-high}" -labels "${LABELS-$here/testdata/precision/labels/commits.tsv}"
