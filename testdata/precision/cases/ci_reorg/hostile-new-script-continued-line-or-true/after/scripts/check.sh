#!/usr/bin/env bash
# Runs the checks.
set -euo pipefail
go test ./... \
  -count=1 || true
