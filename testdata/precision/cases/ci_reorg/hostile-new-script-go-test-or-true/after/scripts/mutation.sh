#!/usr/bin/env bash
# Runs the mutation corpus over the commits that change code and tests.
set -euo pipefail
"$(dirname "$0")/commits.sh" 50 | while read -r c; do
  go test ./... -run . -count=1
done
