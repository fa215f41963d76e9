package guard

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/agent"
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

// PreToolUse decides on one PreToolUse call: every path it reads, every
// file it changes, the command it runs. A tool the client's adapter does
// not know is let through unjudged, unless its input names the gate's own
// files.
func (g *Guard) PreToolUse(c *agent.Call) (Decision, error) {
	for _, p := range c.Reads {
		if d := g.checkRead(c.Tool, p); d.Deny {
			return d, nil
		}
	}
	for _, p := range c.Searches {
		if d := g.checkSearch(c.Tool, p); d.Deny {
			return d, nil
		}
	}
	for _, ch := range c.Changes {
		d, err := g.checkChange(c.Tool, ch)
		if err != nil || d.Deny {
			return d, err
		}
	}
	if c.Command != nil {
		return g.CheckCommand(*c.Command), nil
	}
	if len(c.Reads) == 0 && len(c.Searches) == 0 && len(c.Changes) == 0 {
		return g.checkUnknown(c), nil
	}
	return allow(), nil
}

// checkRead refuses a read of the seal key's directory or the loop's state
// (a pattern counts by its literal part: Grep's path, Glob's pattern).
func (g *Guard) checkRead(tool, p string) Decision {
	if strings.Contains(p, sealKeyName) {
		return denyPrivate(tool, p)
	}
	t := g.WS.Resolve(literalPrefix(p))
	if why := g.WS.ReadDenied(t); why != "" {
		if g.WS.IsPrivate(t) {
			return denyPrivate(tool, p)
		}
		return deny("ralph-gate: %s would read %s, %s: it is the gate's, out of an agent's reach. "+
			"Leave it alone and keep working on the task; 'ralph-gate status' shows the loop.", tool, p, why)
	}
	return allow()
}

// checkSearch refuses a search below the seal key's directory, the loop's
// state, or a directory that holds the seal key (a Grep of ~/.config reads
// it as surely as a Read).
func (g *Guard) checkSearch(tool, p string) Decision {
	if d := g.checkRead(tool, p); d.Deny {
		return d
	}
	t := g.WS.Resolve(literalPrefix(p))
	if g.WS.Private != "" && (within(t.Abs, g.WS.Private) || within(t.Real, g.WS.realPrivate)) {
		return deny("ralph-gate: %s would search %s, which holds %s (%s): it lives outside the repository and out of an agent's reach. "+
			"Search the project instead.", tool, p, sealKeyName, privateOwn)
	}
	return allow()
}

// literalPrefix is a glob's directory part before its first pattern
// character ("src/**/*.go" -> "src"); a plain path is itself.
func literalPrefix(p string) string {
	i := strings.IndexAny(p, "*?[{")
	if i < 0 {
		return p
	}
	if j := strings.LastIndexAny(p[:i], `/\`); j >= 0 {
		return p[:j]
	}
	return "."
}

// checkUnknown refuses a tool the guard does not know (an MCP tool, a
// newer client's tool) whose input names the seal key, the loop's state,
// or another of the gate's or the client's own files in any string field:
// nothing of the gate's can be read or written through any tool.
func (g *Guard) checkUnknown(c *agent.Call) Decision {
	var input any
	if json.Unmarshal(c.Input, &input) != nil {
		return allow()
	}
	d := allow()
	walkStrings(input, func(v string) bool {
		if v == "" || len(v) > 4096 || strings.ContainsAny(v, "\n\x00") {
			return true
		}
		if strings.Contains(v, sealKeyName) {
			d = denyPrivate(c.Tool, v)
			return false
		}
		t := g.WS.Resolve(literalPrefix(v))
		if why := g.WS.ReadDenied(t); why != "" {
			d = g.checkRead(c.Tool, v)
			return false
		}
		if t.Own != "" {
			d = deny("ralph-gate: %s names %s, which belongs to the gate and is out of an agent's reach. "+
				"Leave it alone and keep working on the task.", c.Tool, describeTarget(v, t))
			return false
		}
		return true
	})
	return d
}

// walkStrings calls f on every string in a decoded JSON value until f
// returns false.
func walkStrings(v any, f func(string) bool) bool {
	switch v := v.(type) {
	case string:
		return f(v)
	case []any:
		for _, e := range v {
			if !walkStrings(e, f) {
				return false
			}
		}
	case map[string]any:
		for _, e := range v {
			if !walkStrings(e, f) {
				return false
			}
		}
	}
	return true
}

// sealKeyName is the seal key's file name (loop.SealKeyName).
const sealKeyName = "loop-seal.key"

func denyPrivate(what, path string) Decision {
	return deny("ralph-gate: %s would touch %s, %s: it lives outside the repository and out of an agent's reach. "+
		"Leave it alone and keep working on the task.", what, path, privateOwn)
}

// checkChange judges one file a tool changes: the gate's own files are out
// of reach; a repository file is analyzed as the change current ->
// proposed, a deletion as the file gone, a move as both.
func (g *Guard) checkChange(tool string, ch agent.FileChange) (Decision, error) {
	if ch.Delete || ch.MoveTo != "" {
		d, err := g.checkGone(tool, ch)
		if err != nil || d.Deny || ch.MoveTo == "" {
			return d, err
		}
		// The moved file lands with its content (patched, when the move
		// comes with edits).
		src := g.WS.Resolve(ch.Path)
		apply := ch.Apply
		return g.checkFile(tool, ch.MoveTo, func([]byte, bool) ([]byte, error) {
			cur, existed, err := readCurrent(src.Real)
			if err != nil || !existed {
				return nil, agent.ErrNoChange
			}
			if apply == nil {
				return cur, nil
			}
			return apply(cur, true)
		})
	}
	return g.checkFile(tool, ch.Path, ch.Apply)
}

// checkGone judges a file a tool deletes or moves away: its tests are gone
// from where they were.
func (g *Guard) checkGone(tool string, ch agent.FileChange) (Decision, error) {
	t := g.WS.Resolve(ch.Path)
	if t.Own != "" {
		return deny("ralph-gate: %s would remove %s, which belongs to the gate and is out of an agent's reach. "+
			"Leave it alone and keep working on the task; if the gate's rules or the loop's state need a change, stop and say so: a human makes it.",
			tool, describeTarget(ch.Path, t)), nil
	}
	if !t.Inside() || g.WS.Config.Ignored(t.Rel) || !analyze.Wants(t.Rel) {
		return allow(), nil
	}
	cur, existed, err := readCurrent(t.Real)
	if errors.Is(err, errTooLarge) || errors.Is(err, errNotRegular) || err == nil && !existed {
		return allow(), nil
	}
	if err != nil {
		return Decision{}, fmt.Errorf("read %s: %w", t.Rel, err)
	}
	fc := analyze.FileChange{OldPath: t.Rel, Old: cur}
	if ch.MoveTo != "" {
		if dest := g.WS.Resolve(ch.MoveTo); dest.Inside() {
			// A move within the repository is a rename: the analyzer
			// follows the tests to their new path.
			next := cur
			if ch.Apply != nil {
				next, err = ch.Apply(cur, true)
				if errors.Is(err, agent.ErrNoChange) {
					return allow(), nil // the tool fails by itself: nothing moves
				}
				if err != nil {
					return Decision{}, err
				}
			}
			fc.NewPath, fc.New = dest.Rel, next
		}
	}
	return g.judge(tool, t.Rel, fc)
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
	if !t.Inside() || g.WS.Config.Ignored(t.Rel) || !analyze.Wants(t.Rel) || propose == nil {
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
	if errors.Is(err, agent.ErrNoChange) {
		return allow(), nil
	}
	if err != nil {
		return Decision{}, err
	}
	fc := analyze.FileChange{NewPath: t.Rel, New: next}
	if existed {
		fc.OldPath, fc.Old = t.Rel, cur
	}
	return g.judge(tool, t.Rel, fc)
}

// judge analyzes one file's change and denies it at the fail-on severity.
func (g *Guard) judge(tool, rel string, fc analyze.FileChange) (Decision, error) {
	an := analyze.New(g.WS.Config)
	an.MaskUnchanged()
	findings := an.Analyze(analyze.Change{Files: []analyze.FileChange{fc}})
	blocking := Blocking(findings, g.FailOn, nil)
	if len(blocking) == 0 {
		return allow(), nil
	}
	return Decision{Deny: true, Reason: "ralph-gate: " + explain(tool+" of "+rel+" would introduce", blocking)}, nil
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
		if f.BlocksAt(failOn) && !approved[f.ID] {
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
