#!/usr/bin/env bash
# Makes the precision corpus's commit list from mirrors of the repositories in
# testdata/precision/repos.tsv: for each repository, the last N first-parent
# commits of the recorded snapshot HEAD (not the mirror's current HEAD, so a
# newer mirror gives the same list) whose parent, trees and changed blobs can be
# read. What it passes over on the way, and why, goes to skipped.tsv.
#
# Usage: scripts/precision-corpus-list.sh MIRRORDIR [N=350] [OUTDIR=testdata/precision]
#
# MIRRORDIR holds one git directory per repository, found as OWNER+NAME/repo
# (the layout of the fetch tool's snapshots), OWNER+NAME.git or OWNER+NAME.
# Without the fetch tool, make them with (see scripts/precision-corpus.sh):
#   git clone --mirror https://github.com/OWNER/NAME MIRRORDIR/OWNER+NAME.git
#
# Writes OUTDIR/corpus.tsv (repo, commit, first parent, language, snapshot HEAD)
# and OUTDIR/skipped.tsv (repo, commit, reason).
set -euo pipefail
mirrors=${1:?usage: scripts/precision-corpus-list.sh MIRRORDIR [N] [OUTDIR]}
n=${2:-350}
here=$(cd "$(dirname "$0")/.." && pwd)
out=${3:-$here/testdata/precision}
repos=$here/testdata/precision/repos.tsv

# gitdir_of OWNER/NAME: the git directory of that repository under $mirrors.
gitdir_of() {
  local base=$mirrors/${1/\//+} d
  for d in "$base/repo" "$base.git" "$base"; do
    if [[ -d $d ]] && git --git-dir="$d" rev-parse -q --git-dir >/dev/null 2>&1; then
      echo "$d"
      return
    fi
  done
  echo "precision-corpus-list: no git directory for $1 under $mirrors (want ${1/\//+}/repo or ${1/\//+}.git)" >&2
  return 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  printf '# repo\tcommit\tparent\tlanguage\tsnapshot_head\n'
} >"$tmp/corpus"
printf '# repo\tcommit\treason\n' >"$tmp/skipped"

while IFS=$'\t' read -r repo _url lang head _branch; do
  [[ -z $repo || $repo == \#* ]] && continue
  g=$(gitdir_of "$repo")
  git --git-dir="$g" cat-file -e "$head^{commit}" 2>/dev/null || {
    echo "precision-corpus-list: $repo: snapshot HEAD $head is not in $g" >&2
    exit 1
  }
  taken=0
  # Each line: a first-parent commit and its parents (none for a root commit).
  while read -r c p _; do
    ((taken < n)) || break
    if [[ -z ${p:-} ]]; then
      printf '%s\t%s\t%s\n' "$repo" "$c" "root commit: no parent" >>"$tmp/skipped"
      continue
    fi
    if ! git --git-dir="$g" cat-file -e "$p^{tree}" 2>/dev/null || ! git --git-dir="$g" cat-file -e "$c^{tree}" 2>/dev/null; then
      printf '%s\t%s\t%s\n' "$repo" "$c" "parent or tree not in the snapshot" >>"$tmp/skipped"
      continue
    fi
    # The blobs the change touches (submodule commits excepted) must be there:
    # a snapshot lacks files of 4 MiB and more.
    changes=$(git --git-dir="$g" diff-tree -r --no-renames --no-commit-id "$p" "$c")
    missing=$(awk '$1 != ":160000" && $3 !~ /^0+$/ {print $3} $2 != "160000" && $4 !~ /^0+$/ {print $4}' <<<"$changes" |
      git --git-dir="$g" cat-file --batch-check | awk '$2 == "missing" {print $1}')
    if [[ -n $missing ]]; then
      paths=$(awk -v m="$missing" 'BEGIN {split(m, a, "\n"); for (i in a) miss[a[i]] = 1}
        ($3 in miss || $4 in miss) && k++ < 3 {sub(/^[^\t]*\t/, ""); printf "%s ", $0}' <<<"$changes")
      printf '%s\t%s\t%s\n' "$repo" "$c" "a changed file's blob is not in the snapshot (4 MiB or more): ${paths% }" >>"$tmp/skipped"
      continue
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$repo" "$c" "$p" "$lang" "$head" >>"$tmp/corpus"
    taken=$((taken + 1))
  done < <(git --git-dir="$g" rev-list --first-parent --parents "$head")
  ((taken == n)) || echo "precision-corpus-list: $repo: only $taken commits" >&2
  echo "$repo: $taken commits" >&2
done <"$repos"

mkdir -p "$out"
cp "$tmp/corpus" "$out/corpus.tsv"
cp "$tmp/skipped" "$out/skipped.tsv"
echo "$(($(wc -l <"$out/corpus.tsv") - 1)) commits in $out/corpus.tsv, $(($(wc -l <"$out/skipped.tsv") - 1)) skipped" >&2
