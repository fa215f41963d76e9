#!/usr/bin/env bash
# Runs compare's fail-to-pass witness over real merged commits: the last N
# non-merge commits of REPO that change both production code and tests of
# the language LANG (go, py, js, ts), each compared with its parent. One JSON
# line per commit goes to OUT: the witness's outcome per test, the
# unwitnessed-change finding if any, the tamper check's status and the
# wall time of the whole compare. A summary is printed at the end.
#
# Usage: scripts/witness-corpus.sh REPO LANG [N=20] [OUT=witness-corpus.jsonl]
# CORPUS_SKIP=K passes over the newest K such commits (extending a corpus).
# REPO may be a bare mirror; it is cloned (hard links) so nothing of it changes.
# WITNESS_CONFIG=FILE passes --config FILE (collectors for a project whose
# tests need setup detection cannot know, such as a src/ layout's path).
set -euo pipefail
repo=${1:?usage: scripts/witness-corpus.sh REPO LANG [N] [OUT]}
lang=${2:?usage: scripts/witness-corpus.sh REPO LANG [N] [OUT]}
n=${3:-20}
out=${4:-witness-corpus.jsonl}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$tmp/ralph-gate" ./cmd/ralph-gate)
git clone -q --no-checkout "$repo" "$tmp/r"

commits=$("$here/scripts/corpus-commits.sh" "$tmp/r" "$lang" "$n" "${CORPUS_SKIP:-0}")

: >"$out"
for c in $commits; do
  start=$(date +%s%N)
  rc=0
  "$tmp/ralph-gate" compare --repo "$tmp/r" ${WITNESS_CONFIG:+--config "$WITNESS_CONFIG"} --format json --fail-on none "$c^" "$c" >"$tmp/rep.json" 2>"$tmp/err" || rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  python3 - "$c" "$rc" "$ms" "$tmp/rep.json" "$tmp/err" "$(git -C "$tmp/r" log -1 --format=%s "$c")" >>"$out" <<'EOF'
import json, sys
sha, rc, ms, rep, err, subject = sys.argv[1:7]
row = {"sha": sha, "subject": subject, "exit": int(rc), "ms": int(ms)}
try:
    r = json.load(open(rep))
except Exception:
    row["error"] = open(err).read().strip().splitlines()[-1:] or ["no output"]
else:
    w = r.get("witness") or {}
    row["witness_ran"] = w.get("ran", False)
    row["reason"] = w.get("reason", "")
    row["tests"] = [(t["test"], t["witness"], t.get("detail", "")[:160]) for t in w.get("tests", [])]
    row["unwitnessed"] = [f["severity"] + ": " + f["message"] for f in r["findings"] if f.get("rule") == "unwitnessed-change"]
    tc = r.get("tamper_check") or {}
    row["tamper_ran"] = tc.get("ran", False)
print(json.dumps(row))
EOF
  tail -n1 "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["sha"][:10], r.get("exit"), str(r["ms"])+"ms", "witnessed" if any(t[1]=="witnessed" for t in r.get("tests",[])) else ("UNWITNESSED " + r["unwitnessed"][0].split(":")[0] if r.get("unwitnessed") else (r.get("reason") or r.get("error"))), r["subject"][:60])' >&2
done

python3 - "$out" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
wit = sum(1 for r in rows if any(t[1] == "witnessed" for t in r.get("tests", [])))
unw = sum(1 for r in rows if r.get("unwitnessed"))
err = sum(1 for r in rows if "error" in r)
ms = sorted(r["ms"] for r in rows)
print(f"{len(rows)} commits: {wit} witnessed, {unw} unwitnessed-change, {len(rows)-wit-unw-err} neither, {err} errors; compare median {ms[len(ms)//2] if ms else 0} ms")
EOF
