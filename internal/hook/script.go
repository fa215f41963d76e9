package hook

import (
	"bytes"
	"path/filepath"
	"strings"
)

// File names in the hooks directory.
const (
	// HookName is the hook git runs before a push.
	HookName = "pre-push"
	// ChainedName is where Install moves a hook that was already there; the
	// installed script runs it first.
	ChainedName = "pre-push.ralph-gate-chained"
	// BackupName is where Install --force moves a hook it replaces; the
	// installed script does not run it.
	BackupName = "pre-push.ralph-gate-backup"
)

// marker identifies a hook script Install wrote, whatever its version.
const marker = "ralph-gate-managed-hook"

// IsManaged reports whether a hook file's content is a script Install wrote.
func IsManaged(content []byte) bool {
	return bytes.Contains(content, []byte(marker))
}

// Script returns the pre-push hook that runs binary (an absolute path; empty
// to rely on PATH alone). The script is POSIX sh so that it runs wherever git
// runs hooks, Git for Windows' sh included. It reads git's input once and
// gives it, with git's arguments, first to a chained hook (ChainedName, when
// present and executable) and then to `ralph-gate hook pre-push`.
func Script(binary string) string {
	if binary != "" {
		binary = filepath.ToSlash(binary)
	}
	return strings.Replace(scriptTemplate, "@BINARY@", shellQuote(binary), 1)
}

// shellQuote quotes s as one sh word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

const scriptTemplate = `#!/bin/sh
# ralph-gate pre-push hook (` + marker + `: ralph-gate hook uninstall removes it)
#
# Written by 'ralph-gate hook install'. Before every 'git push' it runs
# 'ralph-gate hook pre-push' on the commits about to be pushed and refuses the
# push when they hold net findings at or above the fail-on severity
# (fail_on in .ralph-gate.yml at the pushed range's base; default high).
# 'ralph-gate hook uninstall' removes it and puts back the hook that was here
# before, byte for byte.
#
# Push anyway, once:  git push --no-verify          (skips every pre-push hook)
#                     RALPH_GATE_SKIP=1 git push    (skips ralph-gate only)
#
# Which ralph-gate runs: $RALPH_GATE_BIN when set; else the binary named on the
# ralph_gate= line below (the one that installed this hook); else ralph-gate
# from PATH. To change it for good, edit that line, or run
# 'ralph-gate hook install' again with the binary you want: it rewrites this
# file and keeps any chained hook.
ralph_gate=@BINARY@

# git's ref lines, read once: the chained hook and ralph-gate both get them.
input=$(cat)
feed() {
	if [ -n "$input" ]; then printf '%s\n' "$input"; fi
}

# The hook that was here before ralph-gate's runs first, with the same
# arguments and input; when it fails, the push is refused.
case $0 in
*/*) chained=${0%/*}/pre-push.ralph-gate-chained ;;
*) chained=./pre-push.ralph-gate-chained ;;
esac
if [ -x "$chained" ]; then
	feed | "$chained" "$@" || exit $?
fi

case "${RALPH_GATE_SKIP:-}" in
1 | true | yes)
	echo "ralph-gate: RALPH_GATE_SKIP is set: pre-push check skipped" >&2
	exit 0
	;;
esac

if [ -n "${RALPH_GATE_BIN:-}" ]; then
	bin=$RALPH_GATE_BIN
elif [ -n "$ralph_gate" ] && [ -x "$ralph_gate" ]; then
	bin=$ralph_gate
elif bin=$(command -v ralph-gate); then
	:
else
	echo "ralph-gate: pre-push hook: ralph-gate is not at '$ralph_gate' nor on PATH: install it, set RALPH_GATE_BIN, or remove this hook with 'ralph-gate hook uninstall' (push anyway: git push --no-verify)" >&2
	exit 2
fi
feed | "$bin" hook pre-push "$1" "$2"
`
