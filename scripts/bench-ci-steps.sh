#!/usr/bin/env bash
# Times what measuring the CI's own test steps costs compare (issue 23's
# budget: at most 1.2x compare without them on a project whose CI test step
# is `go test ./...`). On a copy of a Go repository, BASE adds a workflow
# whose pull-request test step runs `go test ./...`; three HEADs on top:
#   code      a code change, the CI program untouched (nothing is run)
#   workflow  another job added to the workflow, the test step unchanged
#             (read, not run)
#   flags     the test step given flags that change only its output and
#             caching (`go test -v -count=1 ./...`): read, not run
#   step      the test step changed (`go test -short ./...`): BASE's step
#             and HEAD's are run on HEAD's code, side by side
# Each `compare --no-cache` runs three times with compare.ci_commands auto
# and three times with off; the medians and their ratio are printed.
#
# Usage: scripts/bench-ci-steps.sh GOREPO [RUNS=3]
# GOREPO: a Go module repository (bare or not), e.g. a clone of spf13/cobra.
set -euo pipefail
src=${1:?usage: scripts/bench-ci-steps.sh GOREPO [RUNS]}
runs=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/ralph-gate
(cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/ralph-gate && go build -o "$tmp/benchrun" ./scripts/benchrun)
export RALPH_GATE_CONFIG_DIR=$tmp/config

repo=$tmp/repo
git clone -q "$src" "$repo"
g() { git -C "$repo" -c user.name=bench -c user.email=bench@example.com "$@"; }
mkdir -p "$repo/.github/workflows"
cat >"$repo/.github/workflows/ci.yml" <<'EOF'
on: [pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
      - name: Test
        run: go test ./...
EOF
g add -A && g commit -qm "bench: CI test step" && base=$(g rev-parse HEAD)
first=$(cd "$repo" && git ls-files '*.go' | grep -v _test.go | head -n1)

heads=()
g checkout -q -b code "$base" && echo "// bench" >>"$repo/$first" && g commit -qam "code change" && heads+=("code:$(g rev-parse HEAD)")
g checkout -q -b workflow "$base" && printf '  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go vet ./...\n' >>"$repo/.github/workflows/ci.yml" &&
  g commit -qam "another job" && heads+=("workflow:$(g rev-parse HEAD)")
g checkout -q -b flags "$base" && sed -i 's|run: go test ./...|run: go test -v -count=1 ./...|' "$repo/.github/workflows/ci.yml" &&
  g commit -qam "test step flags" && heads+=("flags:$(g rev-parse HEAD)")
g checkout -q -b step "$base" && sed -i 's|run: go test ./...|run: go test -short ./...|' "$repo/.github/workflows/ci.yml" &&
  g commit -qam "test step changed" && heads+=("step:$(g rev-parse HEAD)")

printf 'compare:\n  ci_commands: auto\n' >"$tmp/on.yml"
printf 'compare:\n  ci_commands: off\n' >"$tmp/off.yml"
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "repository: $src ($(cd "$repo" && git ls-files '*_test.go' | wc -l) test files), $runs runs each, compare --no-cache"
for h in "${heads[@]}"; do
  name=${h%%:*} sha=${h#*:}
  for mode in off on; do
    : >"$tmp/$name.$mode"
    for ((i = 0; i < runs; i++)); do
      (cd "$repo" && "$tmp/benchrun" -- "$bin" compare --no-cache --config "$tmp/$mode.yml" --format json --fail-on none "$base" "$sha") | awk '{print $1}' >>"$tmp/$name.$mode"
    done
  done
  on=$(med <"$tmp/$name.on") off=$(med <"$tmp/$name.off")
  awk -v n="$name" -v on="$on" -v off="$off" 'BEGIN {printf "%-9s ci_commands off %6d ms, auto %6d ms: %.2fx\n", n, off, on, on / off}'
done
