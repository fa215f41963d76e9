#!/usr/bin/env bash
# Builds ralph-gate's release archives: static binaries (CGO_ENABLED=0,
# -trimpath, -ldflags "-s -w -X main.version=VERSION") for linux, darwin and
# windows on amd64 and arm64, each packed with LICENSE and README (when
# present) into
#
#   OUTDIR/ralph-gate_${VERSION}_${GOOS}_${GOARCH}.tar.gz   (ralph-gate)
#   OUTDIR/ralph-gate_${VERSION}_windows_${GOARCH}.zip      (ralph-gate.exe)
#
# with the files at the archive's root, and OUTDIR/checksums.txt in sha256sum's
# format ("<hex>  <file>"). The GitHub Action (action.yml) downloads exactly
# these names: change them in both places or neither.
#
# Usage: scripts/release.sh VERSION [OUTDIR]
#   VERSION   1.2.3 or v1.2.3 (the leading v is dropped everywhere)
#   OUTDIR    default: dist (relative to the current directory)
#   TARGETS   environment: the GOOS/GOARCH pairs to build, separated by spaces
#             (default: all six), e.g. TARGETS=linux/amd64 for a quick check
#
# Archives are reproducible: file times are the HEAD commit's time (or
# SOURCE_DATE_EPOCH), owners are root, and gzip stores no name or time, when
# GNU tar and touch are available.
set -euo pipefail

die() {
	echo "release.sh: $*" >&2
	exit 2
}
trap 'echo "release.sh: failed at line $LINENO" >&2' ERR

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: scripts/release.sh VERSION [OUTDIR]"
version=${1#v}
[[ $version =~ ^[0-9A-Za-z][0-9A-Za-z.+_-]*$ ]] || die "VERSION '$1' is not a version (want e.g. 1.2.3 or v1.2.3)"
outdir=${2:-dist}
targets=${TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}

root=$(cd "$(dirname "$0")/.." && pwd)
command -v go >/dev/null || die "go is not on PATH"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
gnu_tar=false
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
	gnu_tar=true
fi

extras=()
for f in LICENSE LICENSE.md LICENSE.txt README.md README; do
	[ -f "$root/$f" ] && extras+=("$f")
done

# zip_files ARCHIVE DIR FILE...: a zip of DIR's FILEs at the archive's root,
# with zip when it is installed, else with python3's zipfile.
zip_files() {
	local archive=$1 dir=$2
	shift 2
	rm -f "$archive"
	if command -v zip >/dev/null; then
		(cd "$dir" && zip -q -X "$archive" "$@")
	elif command -v python3 >/dev/null; then
		python3 - "$archive" "$dir" "$epoch" "$@" <<'PY'
import os, sys, time, zipfile
archive, base, epoch, names = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
stamp = time.gmtime(max(epoch, 315532800))[:6]  # zip times start in 1980
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    for name in names:
        info = zipfile.ZipInfo(name, date_time=stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = (0o100755 if name.endswith(".exe") else 0o100644) << 16
        with open(os.path.join(base, name), "rb") as f:
            z.writestr(info, f.read())
PY
	else
		die "neither zip nor python3 is installed: cannot write $archive"
	fi
}

archives=()
for target in $targets; do
	goos=${target%/*}
	goarch=${target#*/}
	case "$goos/$goarch" in
	linux/amd64 | linux/arm64 | darwin/amd64 | darwin/arm64 | windows/amd64 | windows/arm64) ;;
	*) die "unknown target '$target' in TARGETS (want GOOS/GOARCH: linux, darwin, windows x amd64, arm64)" ;;
	esac
	name=ralph-gate_${version}_${goos}_${goarch}
	stage=$work/$name
	mkdir -p "$stage"
	exe=ralph-gate
	[ "$goos" = windows ] && exe=ralph-gate.exe
	echo "release.sh: building $name" >&2
	(cd "$root" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -buildvcs=auto \
		-ldflags "-s -w -X main.version=$version" -o "$stage/$exe" ./cmd/ralph-gate)
	for f in "${extras[@]}"; do
		cp "$root/$f" "$stage/$f"
	done
	files=("$exe" "${extras[@]}")
	touch -d "@$epoch" "$stage"/* 2>/dev/null || true
	if [ "$goos" = windows ]; then
		archive=$name.zip
		zip_files "$outdir/$archive" "$stage" "${files[@]}"
	else
		archive=$name.tar.gz
		if $gnu_tar; then
			tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "${files[@]}" |
				gzip -n -9 >"$outdir/$archive"
		else
			tar -C "$stage" -cf - "${files[@]}" | gzip -n -9 >"$outdir/$archive"
		fi
	fi
	archives+=("$archive")
done

if command -v sha256sum >/dev/null; then
	sum=(sha256sum)
elif command -v shasum >/dev/null; then
	sum=(shasum -a 256)
else
	die "neither sha256sum nor shasum is installed: cannot write checksums.txt"
fi
(cd "$outdir" && "${sum[@]}" "${archives[@]}" | LC_ALL=C sort -k 2 >checksums.txt.tmp && mv checksums.txt.tmp checksums.txt)
echo "release.sh: wrote ${archives[*]} and checksums.txt to $outdir" >&2
