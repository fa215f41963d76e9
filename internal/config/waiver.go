package config

import (
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// Waiver lets a deliberate, reviewed change through: the findings it names
// (by id, or by type and path glob) are reported as waived and never block,
// until it expires. Waivers count only in BASE's configuration, like all of
// it: a waiver the change itself adds is a gate-config finding, not a pass.
type Waiver struct {
	// ID is a finding's id (RG-XX-0123456789ab); else Type and Path select.
	ID   string           `yaml:"id"`
	Type gate.FindingType `yaml:"type"`
	Path string           `yaml:"path"`
	// Reason, By and Expires are required: why the change is right, who
	// reviewed it, and the last day (YYYY-MM-DD, UTC) the waiver holds.
	Reason  string `yaml:"reason"`
	By      string `yaml:"by"`
	Expires string `yaml:"expires"`
	Line    int    `yaml:"-"`
	expires time.Time
}

// Now is the clock waivers expire by; tests replace it.
var Now = time.Now

// MaxWaiverDays bounds how far ahead a waiver may expire.
const MaxWaiverDays = 366

var findingID = lazyre.New(`^RG-[A-Z]{2,3}-[0-9a-f]{12}$`)

func (w *Waiver) validate(where string) error {
	if w.ID != "" && !findingID.MatchString(w.ID) {
		return fmt.Errorf("%s: %q is not a finding id (RG-XX-0123456789ab, as the report gives it)", where, w.ID)
	}
	if w.ID != "" && (w.Type != "" || w.Path != "") {
		return fmt.Errorf("%s: give an id, or a type and path, not both", where)
	}
	if w.ID == "" && w.Type == "" {
		return fmt.Errorf("%s: give the finding's id, or its type (and a path glob)", where)
	}
	if w.Type != "" && !knownType(w.Type) {
		return fmt.Errorf("%s: unknown finding type %q", where, w.Type)
	}
	if w.Path != "" {
		if _, err := path.Match(strings.ReplaceAll(w.Path, "**", "*"), ""); err != nil {
			return fmt.Errorf("%s: bad path glob %q: %v", where, w.Path, err)
		}
	}
	if strings.TrimSpace(w.Reason) == "" {
		return fmt.Errorf("%s: a waiver needs a reason", where)
	}
	if strings.TrimSpace(w.By) == "" {
		return fmt.Errorf("%s: a waiver needs by: who reviewed the change", where)
	}
	d, err := time.Parse(time.DateOnly, strings.TrimSpace(w.Expires))
	if err != nil {
		return fmt.Errorf("%s: expires must be a date (YYYY-MM-DD), not %q", where, w.Expires)
	}
	w.expires = d
	return nil
}

// holds reports whether the waiver still holds at t: through its expiry
// day, in UTC.
func (w *Waiver) holds(t time.Time) bool {
	return t.UTC().Before(w.expires.AddDate(0, 0, 1))
}

func (w *Waiver) matches(f *gate.Finding) bool {
	if w.ID != "" {
		return f.ID == w.ID
	}
	if f.Type != w.Type {
		return false
	}
	return w.Path == "" || MatchGlob(w.Path, f.File)
}

// waive marks the findings a holding waiver names; a finding a sanctioned
// exception already suppresses is left as it is.
func (c *Config) waive(f *gate.Finding) {
	now := Now()
	for i := range c.Waivers {
		w := &c.Waivers[i]
		if f.Suppressed == "" && w.holds(now) && w.matches(f) {
			f.Suppressed = fmt.Sprintf("waived by %s until %s: %s", w.By, w.Expires, w.Reason)
			f.Waived = true
			return
		}
	}
}

// ExpiredWaivers reports each waiver of the configuration that no longer
// holds: the reviewed change it let through blocks again, and the waiver
// should be renewed or removed (validation_bypass, medium).
func (c *Config) ExpiredWaivers() []gate.Finding {
	now := Now()
	var out []gate.Finding
	for i := range c.Waivers {
		w := &c.Waivers[i]
		if w.holds(now) {
			continue
		}
		what := w.ID
		if what == "" {
			what = string(w.Type)
			if w.Path != "" {
				what += " in " + w.Path
			}
		}
		out = append(out, gate.Finding{
			ID:       gate.MakeID(gate.RuleWaiverExpired.Type, gate.RuleWaiverExpired.ID, FileName, what, w.Expires),
			Type:     gate.RuleWaiverExpired.Type,
			Severity: gate.SeverityMedium,
			File:     FileName,
			Line:     w.Line,
			Net:      true,
			Rule:     gate.RuleWaiverExpired.ID,
			Evidence: gate.EvidenceStatic,
			Message: fmt.Sprintf("the waiver for %s (by %s: %s) expired on %s; what it let through blocks again: renew it with a new date or remove it",
				what, w.By, w.Reason, w.Expires),
		})
	}
	return out
}

// WaiverYAML is the configuration entry `ralph-gate waive` prints: a waiver
// of finding id for days days from now.
func WaiverYAML(id, reason, by string, days int) (string, error) {
	w := Waiver{ID: strings.TrimSpace(id), Reason: strings.TrimSpace(reason), By: strings.TrimSpace(by),
		Expires: Now().UTC().AddDate(0, 0, days).Format(time.DateOnly)}
	if days < 1 || days > MaxWaiverDays {
		return "", fmt.Errorf("--days must be between 1 and %d, not %d", MaxWaiverDays, days)
	}
	if err := w.validate("waiver"); err != nil {
		return "", err
	}
	return "waivers:\n" +
		"  - id: " + w.ID + "\n" +
		"    reason: " + strconv.Quote(w.Reason) + "\n" +
		"    by: " + strconv.Quote(w.By) + "\n" +
		"    expires: " + w.Expires + "\n", nil
}
