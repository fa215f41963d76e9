package analyze

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// TestFileWideSuppressions: a directive that switches a checker off for a
// whole file is validation_bypass high on that file; one line's suppression,
// and a file-level disable of named rules, stay error_suppression medium.
func TestFileWideSuppressions(t *testing.T) {
	tsOld := "export function parse(s: string): number {\n  return Number(s);\n}\n"
	pyOld := "def parse(s: str) -> int:\n    return int(s)\n"
	for _, tc := range []struct {
		name, path, old, new string
		typ                  gate.FindingType
		sev                  gate.Severity
	}{
		{"ts-nocheck", "src/parse.ts", tsOld, "// @ts-nocheck\n" + tsOld, gate.ValidationBypass, gate.SeverityHigh},
		{"eslint-disable block", "src/parse.ts", tsOld, "/* eslint-disable */\n" + tsOld, gate.ValidationBypass, gate.SeverityHigh},
		{"mypy ignore-errors", "app/parse.py", pyOld, "# mypy: ignore-errors\n" + pyOld, gate.ValidationBypass, gate.SeverityHigh},
		{"ruff noqa", "app/parse.py", pyOld, "# ruff: noqa\n" + pyOld, gate.ValidationBypass, gate.SeverityHigh},
		{"flake8 noqa", "app/parse.py", pyOld, "# flake8: noqa\n" + pyOld, gate.ValidationBypass, gate.SeverityHigh},
		{"pylint skip-file", "app/parse.py", pyOld, "# pylint: skip-file\n" + pyOld, gate.ValidationBypass, gate.SeverityHigh},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectFinding(t, run(mod(tc.path, tc.old, tc.new)), tc.typ, tc.sev, tc.path, "")
		})
	}
	// Look-alikes: one line, or named rules for the whole file.
	for _, tc := range []struct{ name, path, old, new string }{
		{"ts-ignore on one line", "src/parse.ts", tsOld, "export function parse(s: string): number {\n  // @ts-ignore\n  return Number(s);\n}\n"},
		{"eslint-disable of one rule", "src/cli.ts", tsOld, "/* eslint-disable no-console */\n" + tsOld},
		{"eslint-disable-next-line", "src/parse.ts", tsOld, "// eslint-disable-next-line\n" + tsOld},
		{"ruff noqa with a code", "app/parse.py", pyOld, "# ruff: noqa: E501\n" + pyOld},
		{"type: ignore on one line", "app/parse.py", pyOld, "def parse(s: str) -> int:\n    return int(s)  # type: ignore\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(mod(tc.path, tc.old, tc.new))
			expectNoHigh(t, fs)
			for _, f := range fs {
				if f.Type == gate.ValidationBypass {
					t.Errorf("a one-line or named-rule suppression read as a checker switched off: %+v", f)
				}
			}
		})
	}
}
