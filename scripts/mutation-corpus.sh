#!/usr/bin/env bash
# Runs compare's diff-based mutation over real merged commits: the last N
# non-merge commits of REPO that change both production code and tests of
# the language LANG (go, py, js, ts), each compared with its parent with
# --mutation. One JSON line per commit goes to OUT: the mutants with their
# outcomes, the score, the time the mutants took and the wall time of the
# whole compare. The surviving mutants, with the commit and its subject, go
# to OUT.survivors.md for a person to read. A summary is printed at the end.
#
# Usage: scripts/mutation-corpus.sh REPO LANG [N=15] [OUT=mutation-corpus.jsonl]
# CORPUS_SKIP=K passes over the newest K such commits (extending a corpus).
# REPO may be a bare mirror; it is cloned (hard links) so nothing of it changes.
# MUTATION_CONFIG=FILE passes --config FILE (collectors, mutation settings).
set -euo pipefail
repo=${1:?usage: scripts/mutation-corpus.sh REPO LANG [N] [OUT]}
lang=${2:?usage: scripts/mutation-corpus.sh REPO LANG [N] [OUT]}
n=${3:-15}
out=${4:-mutation-corpus.jsonl}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$tmp/ralph-gate" ./cmd/ralph-gate)
git clone -q --no-checkout "$repo" "$tmp/r"

commits=$("$here/scripts/corpus-commits.sh" "$tmp/r" "$lang" "$n" "${CORPUS_SKIP:-0}")

: >"$out"
: >"$out.survivors.md"
for c in $commits; do
  start=$(date +%s%N)
  rc=0
  "$tmp/ralph-gate" compare --repo "$tmp/r" ${MUTATION_CONFIG:+--config "$MUTATION_CONFIG"} --mutation --format json --fail-on none "$c^" "$c" >"$tmp/rep.json" 2>"$tmp/err" || rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  python3 - "$c" "$rc" "$ms" "$tmp/rep.json" "$tmp/err" "$(git -C "$tmp/r" log -1 --format=%s "$c")" "$out.survivors.md" >>"$out" <<'EOF'
import json, sys
sha, rc, ms, rep, err, subject, surv = sys.argv[1:8]
row = {"sha": sha, "subject": subject, "exit": int(rc), "ms": int(ms)}
try:
    r = json.load(open(rep))
except Exception:
    row["error"] = open(err).read().strip().splitlines()[-1:] or ["no output"]
else:
    m = r.get("mutation") or {}
    for k in ("ran", "reason", "budget", "spent", "lines", "uncovered", "killed", "survived", "not_viable", "unmeasured", "not_run", "score"):
        row[k] = m.get(k)
    row["mutants"] = [(x["file"], x["line"], x["operator"], x["outcome"], x["original"][:100], x["mutated"][:100], x.get("killed_by", "")) for x in m.get("mutants", [])]
    with open(surv, "a") as f:
        for x in m.get("mutants", []):
            if x["outcome"] == "survived":
                f.write(f"- [ ] {sha[:10]} {subject[:70]}\n  `{x['file']}:{x['line']}` ({x['operator']}) `{x['original']}` → `{x['mutated']}`\n")
print(json.dumps(row))
EOF
  tail -n1 "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["sha"][:10], r.get("exit"), str(r["ms"])+"ms", r.get("error") or "killed %s survived %s not_viable %s not_run %s spent %s %s" % (r.get("killed"), r.get("survived"), r.get("not_viable"), r.get("not_run"), r.get("spent"), (r.get("reason") or "")[:90]), r["subject"][:50])' >&2
done

python3 - "$out" <<'EOF'
import json, sys
def spent_s(s):
    if not s: return 0.0
    import re
    t = 0.0
    for v, u in re.findall(r"([\d.]+)(h|ms|m|s)", s):
        t += float(v) * {"h": 3600, "m": 60, "s": 1, "ms": 0.001}[u]
    return t
rows = [json.loads(l) for l in open(sys.argv[1])]
ran = [r for r in rows if r.get("ran")]
mut = sorted(len(r.get("mutants", [])) for r in ran)
sp = sorted(spent_s(r.get("spent")) for r in ran)
k = sum(r.get("killed") or 0 for r in ran); s = sum(r.get("survived") or 0 for r in ran)
nv = sum(r.get("not_viable") or 0 for r in ran); nr = sum(r.get("not_run") or 0 for r in ran)
med = lambda xs: xs[len(xs)//2] if xs else 0
print(f"{len(rows)} commits, {len(ran)} mutated; mutants per commit median {med(mut)}; killed {k}, survived {s} (survival {100*s/max(1,k+s):.0f}%), not viable {nv}, cut by the budget {nr}; mutation time per commit median {med(sp):.0f}s")
EOF
