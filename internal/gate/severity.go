package gate

import (
	"fmt"
	"strings"
)

// Severity ranks findings. The zero value is SeverityNone.
type Severity int

// Severities in increasing order.
const (
	SeverityNone Severity = iota
	SeverityLow
	SeverityMedium
	SeverityHigh
	SeverityCritical
)

var severityNames = [...]string{"none", "low", "medium", "high", "critical"}

func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity reads a severity name as --fail-on and the config take it.
func ParseSeverity(name string) (Severity, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for i, s := range severityNames {
		if s == n {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want critical, high, medium, low or none)", name)
}

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity's name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// FailOn is the --fail-on policy: the lowest severity of a net finding that blocks.
// FailOn(SeverityNone) never blocks.
type FailOn Severity

// Set implements flag.Value.
func (f *FailOn) Set(v string) error {
	s, err := ParseSeverity(v)
	if err != nil {
		return err
	}
	*f = FailOn(s)
	return nil
}

func (f FailOn) String() string { return Severity(f).String() }

// DefaultFailOn is the policy when neither --fail-on nor the
// configuration's fail_on names one.
const DefaultFailOn = FailOn(SeverityHigh)

// ResolveFailOn is the policy a command applies: the flag's when it was
// given, else the configuration's, else DefaultFailOn.
func ResolveFailOn(flag, config *Severity) FailOn {
	switch {
	case flag != nil:
		return FailOn(*flag)
	case config != nil:
		return FailOn(*config)
	}
	return DefaultFailOn
}

// FailOnFlag is --fail-on as the commands take it: a flag.Value that
// stays unset (nil) until the flag is given, so the configuration's
// fail_on applies when it is not.
type FailOnFlag struct{ v *Severity }

// Set implements flag.Value through FailOn's.
func (f *FailOnFlag) Set(v string) error {
	var p FailOn
	if err := p.Set(v); err != nil {
		return err
	}
	s := Severity(p)
	f.v = &s
	return nil
}

func (f *FailOnFlag) String() string {
	if f == nil || f.v == nil {
		return ""
	}
	return f.v.String()
}

// Value is the severity given, nil when the flag was not.
func (f *FailOnFlag) Value() *Severity { return f.v }

// Blocks reports whether a net finding of severity s blocks under this policy.
func (f FailOn) Blocks(s Severity) bool {
	return Severity(f) != SeverityNone && s >= Severity(f)
}

// BlocksAt reports whether a finding blocks under a fail-on policy: it holds
// at HEAD (Net), no exception sanctions it, and its severity reaches the
// policy. Every verdict is decided by it.
func (f Finding) BlocksAt(failOn FailOn) bool {
	return f.Net && f.Suppressed == "" && failOn.Blocks(f.Severity)
}
