#!/usr/bin/env bash
# Runs the mutation corpus over the commits that change code and tests.
set -euo pipefail
test='_test\.go$'
prod='\.go$'
for c in $(git rev-list --no-merges -n 50 HEAD); do
  files=$(git diff-tree --no-commit-id --name-only -r "$c")
  tests=$(grep -E "$test" <<<"$files" | grep -E "$prod" || true)
  code=$(grep -E "$prod" <<<"$files" | grep -vE "$test" || true)
  [ -n "$tests" ] && [ -n "$code" ] && echo "$c"
done | while read -r c; do
  go test ./... -run . -count=1
done
