#!/usr/bin/env bash
# Times `ralph-gate guard pre-tool-use` as Claude Code runs it, in a running
# loop: the whole process (start, open the repository, read .ralph-gate.yml
# from HEAD, find the loop, judge the call) for an allowed Read (every tool
# call reaches the guard now, reads are the most frequent), a Read of the
# seal key (denied), and an Edit of a 2,000-line Go test file (one allowed:
# read the file, apply the edit, analyze; one denied), N runs of each, and
# prints p50/p95/max in milliseconds. The budgets are 20 ms at p95 for an
# allowed Read and 50 ms for an Edit.
#
# Times come from bash's `time` keyword around the process itself (no time(1)
# or date(1) process start-up counted); scripts/benchrun cannot feed the
# payload on standard input.
#
# Usage: scripts/bench-guard.sh [N=50]
set -euo pipefail
n=${1:-50}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/ralph-gate
(cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/ralph-gate)

repo=$tmp/repo
mkdir -p "$repo/pkg"
git -C "$repo" init -q
printf 'package pkg\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n' >"$repo/pkg/add.go"
# 110 tests of 18 lines each: about 2,000 lines.
{
  printf 'package pkg\n\nimport "testing"\n\n'
  for i in $(seq 0 110); do
    cat <<GO
func TestCase$i(t *testing.T) {
	tests := []struct {
		name string
		a, b int
		want int
	}{
		{"small", $i, 1, $((i + 1))},
		{"zero", 0, $i, $i},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Add(tc.a, tc.b); got != tc.want {
				t.Fatalf("Add(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

GO
  done
} >"$repo/pkg/add_test.go"
printf 'fail_on: high\n' >"$repo/.ralph-gate.yml"
git -C "$repo" add -A
git -C "$repo" -c user.name=bench -c user.email=bench@example.com commit -qm base
lines=$(wc -l <"$repo/pkg/add_test.go")
# The hooks run in the project's directory, as the clients run them: the
# guard finds the repository there (a call's cwd may be anywhere).
cd "$repo"
export RALPH_GATE_CONFIG_DIR=$tmp/config
"$bin" start --task bench --completion true --collect none >/dev/null 2>&1 || { echo "bench-guard: start failed" >&2; exit 1; }

file=$repo/pkg/add_test.go
cat >"$tmp/allow.json" <<JSON
{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"$repo","hook_event_name":"PreToolUse","tool_name":"Edit",
 "tool_input":{"file_path":"$file","old_string":"\t\t{\"zero\", 0, 100, 100},\n","new_string":"\t\t{\"zero\", 0, 100, 100},\n\t\t{\"more\", 1, 100, 101},\n"}}
JSON
cat >"$tmp/deny.json" <<JSON
{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"$repo","hook_event_name":"PreToolUse","tool_name":"Edit",
 "tool_input":{"file_path":"$file","old_string":"func TestCase100(t *testing.T) {","new_string":"func helper100(t *testing.T) {"}}
JSON
cat >"$tmp/read.json" <<JSON
{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"$repo","hook_event_name":"PreToolUse","tool_name":"Read",
 "tool_input":{"file_path":"$repo/pkg/add.go"}}
JSON
cat >"$tmp/readkey.json" <<JSON
{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"$repo","hook_event_name":"PreToolUse","tool_name":"Read",
 "tool_input":{"file_path":"$RALPH_GATE_CONFIG_DIR/loop-seal.key"}}
JSON
# Check the verdicts once.
[ -z "$("$bin" guard pre-tool-use <"$tmp/read.json")" ] || { echo "bench-guard: the Read was denied" >&2; exit 1; }
"$bin" guard pre-tool-use <"$tmp/readkey.json" | grep -q '"deny"' || { echo "bench-guard: the Read of the seal key was not denied" >&2; exit 1; }
[ -z "$("$bin" guard pre-tool-use <"$tmp/allow.json")" ] || { echo "bench-guard: the allowed edit was denied" >&2; exit 1; }
out=$("$bin" guard pre-tool-use <"$tmp/deny.json" 2>&1) || true
case $out in *'"deny"'*) ;; *) echo "bench-guard: the deleting edit was not denied: $out" >&2; exit 1 ;; esac

pct() { # pct FILE P -> the P-th percentile of column 1
  sort -n "$1" | awk -v p="$2" '{a[NR]=$1} END {i=int((NR*p+99)/100); if(i<1)i=1; print a[i]}'
}
TIMEFORMAT=%R
# The floor: the same binary starting and doing nothing ('version'), timed
# the same way, interleaved with the guard's runs so that both see the same
# machine load.
: >"$tmp/version.s"
for kind in read readkey allow deny; do
  : >"$tmp/$kind.s"
  for _ in $(seq "$n"); do
    { time "$bin" guard pre-tool-use <"$tmp/$kind.json" >/dev/null; } 2>>"$tmp/$kind.s"
    { time "$bin" version >/dev/null; } 2>>"$tmp/version.s"
  done
  awk '{printf "%d\n", $1 * 1000 + 0.5}' "$tmp/$kind.s" >"$tmp/$kind.ms"
  case $kind in
  read) what="Read of a source file (allowed)" ;;
  readkey) what="Read of the seal key (denied)" ;;
  allow) what="Edit of a $lines-line Go test file (allowed)" ;;
  deny) what="Edit of a $lines-line Go test file (denied)" ;;
  esac
  printf '%-44s %d runs: p50 %s ms, p95 %s ms, max %s ms\n' \
    "$what" "$n" "$(pct "$tmp/$kind.ms" 50)" "$(pct "$tmp/$kind.ms" 95)" "$(pct "$tmp/$kind.ms" 100)"
done
awk '{printf "%d\n", $1 * 1000 + 0.5}' "$tmp/version.s" >"$tmp/version.ms"
printf '%-44s %d runs: p50 %s ms, p95 %s ms (process start-up on this machine)\n' \
  "floor: ralph-gate version" "$((4 * n))" "$(pct "$tmp/version.ms" 50)" "$(pct "$tmp/version.ms" 95)"
