#!/usr/bin/env bash
# Prints the commits that change both code and tests, for the corpus scripts.
set -euo pipefail
test='_test\.go$'
prod='\.go$'
for c in $(git rev-list --no-merges -n "${1:-50}" HEAD); do
  files=$(git diff-tree --no-commit-id --name-only -r "$c")
  tests=$(grep -E "$test" <<<"$files" | grep -E "$prod" || true)
  code=$(grep -E "$prod" <<<"$files" | grep -vE "$test" || true)
  [ -n "$tests" ] && [ -n "$code" ] && echo "$c"
done
