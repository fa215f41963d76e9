#!/usr/bin/env bash
# Installs ralph-gate for the GitHub Action (action.yml's first step) and puts
# it on GITHUB_PATH.
#
# The release archive for the runner's OS and architecture
# (ralph-gate_${VERSION}_${GOOS}_${GOARCH}.tar.gz, .zip on Windows, as
# scripts/release.sh names them) is downloaded with checksums.txt and its
# SHA-256 verified; a mismatch fails the step. Without a release version (the
# action used at a branch or a commit), or with RG_INSTALL=go, it runs
# `go install` of the action's ref instead, which needs Go on the runner.
#
# Environment (action.yml sets it):
#   RG_VERSION        the version to install (default: the action's ref when it is vX.Y.Z)
#   RG_ACTION_REF     github.action_ref
#   RG_INSTALL        auto (default), release or go
#   RG_DOWNLOAD_BASE  default https://github.com/ralph-gate/ralph-gate/releases/download
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH: the runner's
set -euo pipefail

die() { echo "ralph-gate install: $*" >&2; exit 1; }

mode=${RG_INSTALL:-auto}
case $mode in auto|release|go) ;; *) die "input install: want auto, release or go (got '$mode')" ;; esac
ref=${RG_ACTION_REF:-}
version=${RG_VERSION:-}
if [ -z "$version" ] && [[ $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then version=$ref; fi
version=${version#v}
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

sha256() {
	if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1
	else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

install_release() {
	local base=${RG_DOWNLOAD_BASE:-https://github.com/ralph-gate/ralph-gate/releases/download}
	local ext=tar.gz exe=ralph-gate
	if [ "$goos" = windows ]; then ext=zip exe=ralph-gate.exe; fi
	local name="ralph-gate_${version}_${goos}_${goarch}.${ext}"
	local tmp
	tmp=$(mktemp -d)
	echo "ralph-gate install: downloading $name (v$version)"
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
	command -v go >/dev/null || die "no release version to download (the action is used at '${ref:-?}') and Go is not set up: use a release tag (uses: ralph-gate/ralph-gate@v1) or add actions/setup-go before this step"
	local at=${ref:-latest}
	[ -n "$version" ] && at=v$version
	echo "ralph-gate install: go install github.com/ralph-gate/ralph-gate/cmd/ralph-gate@$at"
	GOBIN=$bindir CGO_ENABLED=0 go install "github.com/ralph-gate/ralph-gate/cmd/ralph-gate@$at"
}

case $mode in
	release)
		[ -n "$version" ] || die "install: release needs a version (the version input, or the action at a vX.Y.Z tag)"
		install_release || die "could not download release v$version"
		;;
	go) install_go ;;
	auto)
		if [ -n "$version" ] && install_release; then :; else install_go; fi
		;;
esac
echo "$bindir" >>"${GITHUB_PATH:-/dev/null}"
"$bindir/ralph-gate" version
