package report

import (
	"encoding/json"
	"io"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// renderJSON writes the contract's report: rep as encoding/json marshals it, with
// a two-space indent and a trailing newline. commits and findings are always
// arrays, the schema name is always set, and an empty verdict is decided from the
// findings, so a consumer never sees null where the contract promises a list.
// HTML characters are not escaped: messages such as "toEqual -> toBeDefined" stay
// readable.
func renderJSON(w io.Writer, rep *gate.Report, _ Options) error {
	out := *rep
	if out.Schema == "" {
		out.Schema = gate.Schema
	}
	if out.Tool.Name == "" {
		out.Tool.Name = toolName
	}
	if out.Commits == nil {
		out.Commits = []gate.Commit{}
	}
	if out.Findings == nil {
		out.Findings = []gate.Finding{}
	}
	if out.Verdict == "" {
		out.Verdict = gate.Decide(out.Findings, gate.FailOn(out.FailOn))
	}
	return writeJSON(w, &out)
}

// writeJSON writes v indented, HTML characters as they are: every JSON
// format ralph-gate writes (json, sarif, codeclimate, rdjson) the same way.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
