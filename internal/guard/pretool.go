package guard

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// Decision is the guard's answer to one tool call. The zero value allows it
// without a word.
type Decision struct {
	Deny   bool
	Reason string
}

func allow() Decision { return Decision{} }

func deny(format string, args ...any) Decision {
	return Decision{Deny: true, Reason: fmt.Sprintf(format, args...)}
}

// Guard judges tool calls in one workspace.
type Guard struct {
	WS *Workspace
	// FailOn is the lowest severity that denies a call.
	FailOn gate.FailOn
	// Baseline resolves the active loop's baseline commit and whether a
	// revision is an ancestor of it (for git reset); nil outside a loop.
	Loop LoopHistory
}

// LoopHistory answers the questions about the active loop's commits that a
// shell command's effect depends on.
type LoopHistory interface {
	// BeforeBaseline reports whether rev names a commit the loop's baseline
	// does not lead to (a reset there would drop the loop's iterations), with
	// the baseline's short name for messages.
	BeforeBaseline(rev string) (bool, string, error)
}

// PreToolUse decides on one PreToolUse call.
func (g *Guard) PreToolUse(p *Payload) (Decision, error) {
	in, err := p.Input()
	if err != nil {
		return Decision{}, err
	}
	switch in := in.(type) {
	case *WriteInput:
		return g.checkFile(p.ToolName, in.FilePath, func(cur []byte, existed bool) ([]byte, error) {
			return []byte(*in.Content), nil
		})
	case *EditInput:
		return g.checkFile(p.ToolName, in.FilePath, func(cur []byte, existed bool) ([]byte, error) {
			return ApplyEdits(cur, existed, []EditInput{*in})
		})
	case *MultiEditInput:
		return g.checkFile(p.ToolName, in.FilePath, func(cur []byte, existed bool) ([]byte, error) {
			return ApplyEdits(cur, existed, in.Edits)
		})
	case *BashInput:
		return g.CheckCommand(*in.Command), nil
	}
	return g.checkPrivate(p), nil
}

// checkPrivate refuses any other tool (Read, Grep, Glob, NotebookEdit, an
// MCP tool) whose input names a path in the seal key's directory.
func (g *Guard) checkPrivate(p *Payload) Decision {
	if g.WS.Private == "" {
		return allow()
	}
	var fields map[string]any
	if json.Unmarshal(p.ToolInput, &fields) != nil {
		return allow()
	}
	for _, k := range []string{"file_path", "path", "notebook_path", "pattern", "glob"} {
		v, ok := fields[k].(string)
		if !ok || v == "" {
			continue
		}
		if t := g.WS.Resolve(v); g.WS.IsPrivate(t) || strings.Contains(v, sealKeyName) {
			return denyPrivate(p.ToolName, v)
		}
	}
	return allow()
}

// sealKeyName is the seal key's file name (loop.SealKeyName).
const sealKeyName = "loop-seal.key"

func denyPrivate(what, path string) Decision {
	return deny("ralph-gate: %s would touch %s, %s: it lives outside the repository and out of an agent's reach. "+
		"Leave it alone and keep working on the task.", what, path, privateOwn)
}

// checkFile judges a change to one file: the gate's own files are out of
// reach; a repository file is analyzed as the change current -> proposed.
func (g *Guard) checkFile(tool, path string, propose func(cur []byte, existed bool) ([]byte, error)) (Decision, error) {
	t := g.WS.Resolve(path)
	if t.Own != "" {
		return deny("ralph-gate: %s would change %s, which belongs to the gate and is out of an agent's reach. "+
			"Leave it alone and keep working on the task; if the gate's rules or the loop's state need a change, stop and say so: a human makes it.",
			tool, describeTarget(path, t)), nil
	}
	if !t.Inside() || g.WS.Config.Ignored(t.Rel) || !analyze.Wants(t.Rel) {
		return allow(), nil
	}
	cur, existed, err := readCurrent(t.Real)
	if errors.Is(err, errTooLarge) || errors.Is(err, errNotRegular) {
		return allow(), nil
	}
	if err != nil {
		return Decision{}, fmt.Errorf("read %s: %w", t.Rel, err)
	}
	next, err := propose(cur, existed)
	if errors.Is(err, errToolFails) {
		return allow(), nil
	}
	if err != nil {
		return Decision{}, err
	}
	fc := analyze.FileChange{NewPath: t.Rel, New: next}
	if existed {
		fc.OldPath, fc.Old = t.Rel, cur
	}
	an := analyze.New(g.WS.Config)
	an.MaskUnchanged()
	findings := an.Analyze(analyze.Change{Files: []analyze.FileChange{fc}})
	blocking := Blocking(findings, g.FailOn, nil)
	if len(blocking) == 0 {
		return allow(), nil
	}
	return Decision{Deny: true, Reason: "ralph-gate: " + explain(tool+" of "+t.Rel+" would introduce", blocking)}, nil
}

func describeTarget(path string, t Target) string {
	if t.Rel != "" && t.Rel != path {
		return fmt.Sprintf("%s (%s)", path, t.Own)
	}
	return t.Own + ": " + path
}

// Blocking keeps the findings at or above failOn that no exception sanctions
// and no human approved.
func Blocking(fs []gate.Finding, failOn gate.FailOn, approved map[string]bool) []gate.Finding {
	var out []gate.Finding
	for _, f := range fs {
		if f.Net && f.Suppressed == "" && failOn.Blocks(f.Severity) && !approved[f.ID] {
			out = append(out, f)
		}
	}
	return out
}

// explain writes findings for the agent: intro ("Edit of a_test.go would
// introduce"), each finding, then what to do instead.
func explain(intro string, fs []gate.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d regression%s at or above the fail-on severity:", intro, len(fs), plural(len(fs)))
	seen := map[gate.FindingType]bool{}
	var advice []string
	for i, f := range fs {
		if i == 8 {
			fmt.Fprintf(&b, " (and %d more)", len(fs)-i)
			break
		}
		loc := f.File
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		fmt.Fprintf(&b, " [%s %s] %s: %s", f.Severity, f.Type, loc, strings.TrimSuffix(f.Message, "."))
		b.WriteString(".")
		if !seen[f.Type] {
			seen[f.Type] = true
			advice = append(advice, Advice(f.Type))
		}
	}
	b.WriteString(" Instead: ")
	b.WriteString(strings.Join(advice, " "))
	return b.String()
}

// Advice says what to do instead of the change that made a finding.
func Advice(t gate.FindingType) string {
	switch t {
	case gate.TestDeletion:
		return "keep the test and make the code pass it; if the test itself is wrong, stop and ask a human to approve removing it."
	case gate.TestSkipping:
		return "do not skip or disable the test: fix the code under test so that it passes."
	case gate.AssertionWeakening:
		return "keep every assertion and its expected value; change the implementation, not the expectation (adding assertions is fine)."
	case gate.ErrorSuppression:
		return "fix the error the checker reports instead of silencing it or swallowing it."
	case gate.ValidationBypass:
		return "leave CI, test commands, coverage thresholds and strictness as they are, and do not special-case test inputs in the code."
	case gate.FeatureRemoval:
		return "keep the public API or command; add the new behaviour beside it."
	}
	return "make the change without weakening what checks the code."
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
