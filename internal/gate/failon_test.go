package gate

import (
	"flag"
	"io"
	"testing"
)

func TestFailOnFlag(t *testing.T) {
	high, low := SeverityHigh, SeverityLow
	for _, tc := range []struct {
		name   string
		args   []string
		config *Severity
		want   FailOn
	}{
		{"nothing given", nil, nil, DefaultFailOn},
		{"the config's", nil, &low, FailOn(SeverityLow)},
		{"the flag over the config", []string{"--fail-on", "critical"}, &low, FailOn(SeverityCritical)},
		{"none is a value, not unset", []string{"--fail-on=none"}, &high, FailOn(SeverityNone)},
		{"case and spaces", []string{"--fail-on", " Medium "}, nil, FailOn(SeverityMedium)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("x", flag.ContinueOnError)
			var f FailOnFlag
			fs.Var(&f, "fail-on", "")
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			if got := ResolveFailOn(f.Value(), tc.config); got != tc.want {
				t.Errorf("ResolveFailOn = %v, want %v", got, tc.want)
			}
		})
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f FailOnFlag
	fs.Var(&f, "fail-on", "")
	if err := fs.Parse([]string{"--fail-on", "extreme"}); err == nil || f.Value() != nil {
		t.Errorf("--fail-on extreme: err %v, value %v; want an error and no value", err, f.Value())
	}
	if f.String() != "" || (*FailOnFlag)(nil).String() != "" {
		t.Errorf("an unset flag prints %q, want empty (flag's help shows no default)", f.String())
	}
}
