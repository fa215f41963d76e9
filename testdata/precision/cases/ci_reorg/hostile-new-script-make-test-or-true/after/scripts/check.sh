#!/usr/bin/env bash
# Runs the checks.
set -euo pipefail
make test || true
