#!/usr/bin/env bash
# Times what the fail-to-pass witness costs next to the tamper check, on real
# commits: for each commit of a corpus file written by witness-corpus.sh on
# which both ran, `compare --no-cache C^ C` is timed three ways, three
# interleaved rounds each (the median kept):
#   neither: --no-witness --no-tamper-check  (measuring both ends)
#   tamper:  --no-witness                    (plus the tamper check)
#   witness: --no-tamper-check               (plus the witness)
# The tamper check's cost is tamper - neither, the witness's witness - neither.
#
# Usage: scripts/bench-witness.sh REPO CORPUS.jsonl [N=6]
set -euo pipefail
repo=${1:?usage: scripts/bench-witness.sh REPO CORPUS.jsonl [N]}
corpus=${2:?usage: scripts/bench-witness.sh REPO CORPUS.jsonl [N]}
n=${3:-6}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$tmp/ralph-gate" ./cmd/ralph-gate && go build -o "$tmp/benchrun" ./scripts/benchrun)
git clone -q --no-checkout "$repo" "$tmp/r"

python3 - "$corpus" "$n" >"$tmp/commits" <<'EOF'
import json, sys
n = int(sys.argv[2])
rows = [json.loads(l) for l in open(sys.argv[1])]
picked = [r["sha"] for r in rows if r.get("witness_ran") and r.get("tamper_ran")][:n]
print("\n".join(picked))
EOF
[ -s "$tmp/commits" ] || { echo "bench-witness: no commit of $corpus ran both the witness and the tamper check" >&2; exit 1; }

ms() { "$tmp/benchrun" -- "$tmp/ralph-gate" compare --repo "$tmp/r" --no-cache --format json --fail-on none "$@" | awk '{print $1}'; }
med() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

printf '%-12s %9s %9s %9s %9s %9s\n' commit neither tamper witness t-cost w-cost
while read -r c; do
  a=() b=() w=()
  for _ in 1 2 3; do
    a+=("$(ms --no-witness --no-tamper-check "$c^" "$c")")
    b+=("$(ms --no-witness "$c^" "$c")")
    w+=("$(ms --no-tamper-check "$c^" "$c")")
  done
  A=$(med "${a[@]}") B=$(med "${b[@]}") W=$(med "${w[@]}")
  printf '%-12s %9s %9s %9s %9s %9s\n' "${c:0:10}" "$A" "$B" "$W" $((B - A)) $((W - A))
done <"$tmp/commits" | tee "$tmp/table"
awk 'NR>1 || $1 != "commit" {t+=$5; w+=$6} END {if (t>0) printf "sum: tamper check %d ms, witness %d ms (%.2fx)\n", t, w, w/t; else printf "sum: tamper check %d ms, witness %d ms\n", t, w}' "$tmp/table"
