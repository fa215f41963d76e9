#!/usr/bin/env bash
# Installs ralph-gate for the GitHub Action (action.yml's first step) and puts
# it on GITHUB_PATH.
#
# The release archive for the runner's OS and architecture
# (ralph-gate_${VERSION}_${GOOS}_${GOARCH}.tar.gz, .zip on Windows, as
# scripts/release.sh names them) is downloaded with checksums.txt and its
# SHA-256 verified; a mismatch fails the step.
#
# Which version: the version input, else the action's ref. A vX.Y.Z ref is the
# version; a floating tag (v1, v1.2) or a commit SHA is resolved with
# `git ls-remote --tags` to the vX.Y.Z tag on the same commit (for v1 and v1.2,
# else the highest vX.Y.Z under it). A ref that names no release (a branch, an
# unreleased commit, the action used as `uses: ./`) is built from source with
# Go instead: `go install ...@<ref>`, or `go build` of the action's own
# checkout when there is no ref. RG_INSTALL=go always builds; =release never
# does.
#
# Environment (action.yml sets it):
#   RG_VERSION           the version input
#   RG_ACTION_REF        github.action_ref (empty in some runners for composite
#                        actions: then taken from GITHUB_ACTION_PATH, which ends
#                        in _actions/<owner>/<repo>/<ref>)
#   RG_ACTION_REPOSITORY github.action_repository (default ralph-gate/ralph-gate)
#   RG_INSTALL           auto (default), release or go
#   RG_DOWNLOAD_BASE     default https://github.com/<repository>/releases/download
#   RG_REPO_URL          for ls-remote; default https://github.com/<repository>
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_ACTION_PATH: the runner's
set -euo pipefail

die() { echo "ralph-gate install: $*" >&2; exit 1; }
log() { echo "ralph-gate install: $*"; }

mode=${RG_INSTALL:-auto}
case $mode in auto|release|go) ;; *) die "input install: want auto, release or go (got '$mode')" ;; esac
repository=${RG_ACTION_REPOSITORY:-ralph-gate/ralph-gate}
module=github.com/ralph-gate/ralph-gate
ref=${RG_ACTION_REF:-}
if [ -z "$ref" ] && [[ ${GITHUB_ACTION_PATH:-} == */_actions/* ]]; then
	ref=${GITHUB_ACTION_PATH%/}
	ref=${ref##*/}
fi
bindir=${RUNNER_TEMP:-/tmp}/ralph-gate-bin
mkdir -p "$bindir"

case ${RUNNER_OS:-$(uname -s)} in
	Linux) goos=linux ;;
	macOS|Darwin) goos=darwin ;;
	Windows|MINGW*|MSYS*) goos=windows ;;
	*) die "unsupported runner OS '${RUNNER_OS:-}'" ;;
esac
case ${RUNNER_ARCH:-$(uname -m)} in
	X64|x86_64|amd64) goarch=amd64 ;;
	ARM64|arm64|aarch64) goarch=arm64 ;;
	*) die "unsupported runner architecture '${RUNNER_ARCH:-}'" ;;
esac

# release_of prints the vX.Y.Z release a ref stands for, or nothing.
release_of() {
	local ref=$1 tags commit
	if [[ $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then echo "$ref"; return; fi
	[[ $ref =~ ^v[0-9]+(\.[0-9]+)?$ || $ref =~ ^[0-9a-f]{40}$ ]] || return 0
	tags=$(git ls-remote --tags "${RG_REPO_URL:-https://github.com/$repository}" 2>/dev/null) || return 0
	# The commit: an annotated tag's peeled line, a lightweight tag's line, or the SHA itself.
	commit=$(awk -v t="refs/tags/$ref^{}" '$2 == t {print $1}' <<<"$tags")
	[ -n "$commit" ] || commit=$(awk -v t="refs/tags/$ref" '$2 == t {print $1}' <<<"$tags")
	[ -n "$commit" ] || commit=$ref
	local exact
	exact=$(awk -v c="$commit" '$1 == c {t = $2; sub("^refs/tags/", "", t); sub("\\^\\{\\}$", "", t); print t}' <<<"$tags" |
		grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -t. -k1,1 -k2,2n -k3,3n | tail -n 1 || true)
	if [ -n "$exact" ]; then echo "$exact"; return; fi
	if [[ $ref =~ ^v[0-9] ]]; then
		sed -n 's|^[0-9a-f]*[[:space:]]*refs/tags/||p' <<<"$tags" | grep -E "^${ref//./\\.}\.[0-9]+(\.[0-9]+)?$" |
			grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -t. -k1,1 -k2,2n -k3,3n | tail -n 1 || true
	fi
}

sha256() {
	if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1
	else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

install_release() {
	local base=${RG_DOWNLOAD_BASE:-https://github.com/$repository/releases/download}
	local ext=tar.gz exe=ralph-gate
	if [ "$goos" = windows ]; then ext=zip exe=ralph-gate.exe; fi
	local name="ralph-gate_${version}_${goos}_${goarch}.${ext}"
	local tmp
	tmp=$(mktemp -d)
	log "downloading $name (v$version)"
	curl -fsSL --retry 3 -o "$tmp/$name" "$base/v$version/$name" || return 1
	curl -fsSL --retry 3 -o "$tmp/checksums.txt" "$base/v$version/checksums.txt" || return 1
	local want got
	want=$(awk -v n="$name" '$2 == n || $2 == "*"n {print $1}' "$tmp/checksums.txt")
	[ -n "$want" ] || die "checksums.txt of v$version has no line for $name"
	got=$(sha256 "$tmp/$name")
	[ "$want" = "$got" ] || die "checksum mismatch for $name: checksums.txt says $want, the download is $got"
	if [ "$ext" = zip ]; then
		(cd "$tmp" && unzip -q -o "$name" "$exe")
	else
		tar -xzf "$tmp/$name" -C "$tmp" "$exe"
	fi
	mv "$tmp/$exe" "$bindir/$exe"
	chmod +x "$bindir/$exe"
	rm -rf "$tmp"
}

install_go() {
	command -v go >/dev/null || die "no release to download for the action's ref '${ref:-?}' and Go is not set up: use a release tag (uses: $repository@v1) or add actions/setup-go before this step"
	if [ -n "$version" ]; then
		local at=v$version
	elif [ -n "$ref" ]; then
		local at=$ref
	elif [ -f "${GITHUB_ACTION_PATH:-}/go.mod" ]; then
		log "go build of the action's checkout ${GITHUB_ACTION_PATH}"
		(cd "$GITHUB_ACTION_PATH" && CGO_ENABLED=0 go build -trimpath -o "$bindir/" ./cmd/ralph-gate)
		return
	else
		die "no version, no action ref and no action checkout to build: give the version input"
	fi
	log "go install $module/cmd/ralph-gate@$at"
	GOBIN=$bindir CGO_ENABLED=0 go install -trimpath "$module/cmd/ralph-gate@$at"
}

version=${RG_VERSION:-}
if [ -z "$version" ] && [ "$mode" != go ] && [ -n "$ref" ]; then version=$(release_of "$ref"); fi
version=${version#v}

case $mode in
	release)
		[ -n "$version" ] || die "install: release needs a version (the version input, or the action at a release tag; '${ref:-?}' names none)"
		install_release || die "could not download release v$version"
		;;
	go) install_go ;;
	auto)
		if [ -z "$version" ]; then
			install_go
		elif ! install_release; then
			log "could not download release v$version: building it with Go"
			install_go
		fi
		;;
esac
echo "$bindir" >>"${GITHUB_PATH:-/dev/null}"
"$bindir/ralph-gate" version
