#!/usr/bin/env bash
# Lists the commits the corpus scripts (witness-corpus.sh, mutation-corpus.sh)
# run over: the last N non-merge commits of the repository GITDIR that change
# both production code and tests of the language LANG (go, py, js, ts), newest
# first, one per line. Files under testdata, vendor, examples and docs are no
# production code.
#
# Usage: scripts/corpus-commits.sh GITDIR LANG N [SKIP=0]
# SKIP passes over the first SKIP such commits (a corpus extended further back).
set -euo pipefail
dir=${1:?usage: scripts/corpus-commits.sh GITDIR LANG N}
lang=${2:?usage: scripts/corpus-commits.sh GITDIR LANG N}
n=${3:?usage: scripts/corpus-commits.sh GITDIR LANG N}
skip=${4:-0}
case $lang in
go) prod='\.go$' test='_test\.go$' ;;
py) prod='\.py$' test='(^|/)(test_[^/]*|[^/]*_test)\.py$|(^|/)tests?/' ;;
js) prod='\.(js|mjs|cjs)$' test='\.(test|spec)\.(js|mjs|cjs)$|(^|/)(__tests__|test)/' ;;
ts) prod='\.(ts|tsx)$' test='\.(test|spec)\.(ts|tsx)$|(^|/)(__tests__|test)/' ;;
*) echo "corpus-commits: LANG is go, py, js or ts, not $lang" >&2; exit 2 ;;
esac
picked=0
for c in $(git -C "$dir" rev-list --no-merges -n 2000 HEAD); do
  [ "$picked" -ge $((n + skip)) ] && break
  git -C "$dir" rev-parse -q --verify "$c^" >/dev/null || continue
  files=$(git -C "$dir" diff-tree --no-commit-id --name-only -r "$c")
  tests=$(grep -E "$test" <<<"$files" | grep -E "$prod" || true)
  code=$(grep -E "$prod" <<<"$files" | grep -vE "$test" | grep -vE '(^|/)(testdata|vendor|examples?|docs?)/' || true)
  [ -n "$tests" ] && [ -n "$code" ] || continue
  picked=$((picked + 1))
  [ "$picked" -gt "$skip" ] || continue
  echo "$c"
done
