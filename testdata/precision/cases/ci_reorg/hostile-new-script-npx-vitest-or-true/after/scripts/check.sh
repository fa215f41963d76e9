#!/usr/bin/env bash
# Runs the checks.
set -euo pipefail
npx vitest run || true
