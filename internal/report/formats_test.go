package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// validate checks out against a schema of ../../testdata/schemas.
func validate(t *testing.T, schemaFile string, out []byte) {
	t.Helper()
	s, err := jsonschema.NewCompiler().Compile("../../testdata/schemas/" + schemaFile)
	if err != nil {
		t.Fatalf("compile %s: %v", schemaFile, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if err := s.Validate(inst); err != nil {
		t.Fatalf("does not validate against %s: %v\n%s", schemaFile, err, out)
	}
}

// wantNet lists the net findings of a report: the ones both formats carry.
func wantNet(rep *gate.Report) []gate.Finding {
	return netFindings(rep)
}

func TestCodeClimate(t *testing.T) {
	for name, rep := range map[string]*gate.Report{"full": fullReport(), "warn": warnReport(), "empty": emptyReport()} {
		out := render(t, CodeClimate, rep, Options{})
		validate(t, "gitlab-codequality.json", out)
		var issues []ccIssue
		if err := json.Unmarshal(out, &issues); err != nil {
			t.Fatal(err)
		}
		net := wantNet(rep)
		if len(issues) != len(net) {
			t.Fatalf("%s: %d issues for %d net findings", name, len(issues), len(net))
		}
		seen := map[string]bool{}
		for i, is := range issues {
			f := net[i]
			if seen[is.Fingerprint] {
				t.Errorf("%s: fingerprint %s twice: GitLab would show one issue", name, is.Fingerprint)
			}
			seen[is.Fingerprint] = true
			if f.File != "" && is.Location.Path != f.File || f.File == "" && is.Location.Path != RepositoryAnchor {
				t.Errorf("%s: issue %d at %q, finding in %q", name, i, is.Location.Path, f.File)
			}
			if f.Suppressed != "" && (is.Severity != "info" || !strings.Contains(is.Description, "suppressed: "+f.Suppressed)) {
				t.Errorf("%s: a suppressed finding is %s %q", name, is.Severity, is.Description)
			}
			if f.Suppressed == "" && f.Severity == gate.SeverityCritical && is.Severity != "blocker" {
				t.Errorf("%s: a critical finding is %s", name, is.Severity)
			}
		}
	}
}

func TestRDJSON(t *testing.T) {
	for name, rep := range map[string]*gate.Report{"full": fullReport(), "warn": warnReport(), "empty": emptyReport(), "hostile": hostileReport()} {
		out := render(t, RDJSON, rep, Options{})
		validate(t, "reviewdog-DiagnosticResult.json", out)
		// Only the proto's fields (reviewdog.proto): names a protojson
		// reader knows.
		var raw map[string]any
		if err := json.Unmarshal(out, &raw); err != nil {
			t.Fatal(err)
		}
		checkFields(t, raw, map[string]bool{"source": true, "diagnostics": true, "severity": true})
		var res rdResult
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatal(err)
		}
		net := wantNet(rep)
		if len(res.Diagnostics) != len(net) || res.Source.Name != "ralph-gate" {
			t.Fatalf("%s: %d diagnostics from %q for %d net findings", name, len(res.Diagnostics), res.Source.Name, len(net))
		}
		for i, d := range res.Diagnostics {
			f := net[i]
			want := "WARNING"
			switch {
			case f.Suppressed != "":
				want = "INFO"
			case gate.FailOn(rep.FailOn).Blocks(f.Severity):
				want = "ERROR"
			}
			if d.Severity != want || d.Location.Range.Start.Line < 1 || d.Code.Value == "" || d.Message == "" {
				t.Errorf("%s: diagnostic %d = %+v, want severity %s, a line, a code and a message", name, i, d, want)
			}
			// reviewdog's local reporter prints original_output as it is:
			// one line, path:line first, the check last.
			prefix := cleanLine(fmt.Sprintf("%s:%d: %s: ", d.Location.Path, d.Location.Range.Start.Line, f.Severity))
			if !strings.HasPrefix(d.OriginalOutput, prefix) || !strings.HasSuffix(d.OriginalOutput, " ("+d.Code.Value+")") || strings.ContainsAny(d.OriginalOutput, "\r\n") {
				t.Errorf("%s: diagnostic %d: original_output %q, want one line %q...(%s)", name, i, d.OriginalOutput, prefix, d.Code.Value)
			}
		}
	}
}

// checkFields fails on a field the rdjson proto does not define, at any
// depth of a DiagnosticResult.
func checkFields(t *testing.T, v map[string]any, allowed map[string]bool) {
	t.Helper()
	fields := map[string]map[string]bool{
		"source":      {"name": true, "url": true},
		"diagnostics": {"message": true, "location": true, "severity": true, "source": true, "code": true, "suggestions": true, "original_output": true, "related_locations": true},
		"location":    {"path": true, "range": true},
		"range":       {"start": true, "end": true},
		"start":       {"line": true, "column": true},
		"code":        {"value": true, "url": true},
	}
	for k, sub := range v {
		if !allowed[k] {
			t.Errorf("field %q is not in reviewdog.proto", k)
			continue
		}
		switch x := sub.(type) {
		case map[string]any:
			checkFields(t, x, fields[k])
		case []any:
			for _, e := range x {
				if m, ok := e.(map[string]any); ok {
					checkFields(t, m, fields[k])
				}
			}
		}
	}
}

func TestBlobURL(t *testing.T) {
	const sha = "3b5d7f9a1c2e4b6d8f0a2c4e6b8d0f1a3c5e7b9d"
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	for _, c := range []struct {
		name string
		env  func(string) string
		head string
		want string
	}{
		{"github", env("GITHUB_SERVER_URL", "https://github.com", "GITHUB_REPOSITORY", "o/r"), sha, "https://github.com/o/r/blob/" + sha + "/"},
		{"github enterprise", env("GITHUB_SERVER_URL", "https://ghe.example.com/", "GITHUB_REPOSITORY", "o/r"), sha, "https://ghe.example.com/o/r/blob/" + sha + "/"},
		{"gitlab", env("CI_PROJECT_URL", "https://gitlab.com/g/sub/p"), sha, "https://gitlab.com/g/sub/p/-/blob/" + sha + "/"},
		{"no forge", env(), sha, ""},
		{"short head", env("CI_PROJECT_URL", "https://gitlab.com/g/p"), "3b5d7f9", ""},
		{"no head (a patch)", env("CI_PROJECT_URL", "https://gitlab.com/g/p"), "", ""},
		{"not a URL", env("CI_PROJECT_URL", "javascript:alert(1)"), sha, ""},
		{"markdown in the URL", env("GITHUB_SERVER_URL", "https://x.com/a)(b", "GITHUB_REPOSITORY", "o/r"), sha, ""},
	} {
		if got := BlobURL(c.env, c.head); got != c.want {
			t.Errorf("%s: BlobURL = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestMarkdownLinks: with a BlobURL each located finding's cell links to its
// line, paths percent-encoded so that no file name can end the link.
func TestMarkdownLinks(t *testing.T) {
	rep := fullReport()
	rep.Findings = append(rep.Findings, gate.Finding{
		ID: "RG-X", Type: gate.TestDeletion, Severity: gate.SeverityHigh, Net: true,
		File: "odd dir/a)b[c].go", Line: 3, Message: "m", Rule: "r",
	})
	base := "https://github.com/o/r/blob/" + shaC3 + "/"
	out := string(render(t, Markdown, rep, Options{BlobURL: base}))
	for _, want := range []string{
		"[`internal/parse/parse_test.go:42`](" + base + "internal/parse/parse_test.go#L42)",
		"(" + base + "odd%20dir/a%29b%5Bc%5D.go#L3)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %s:\n%s", want, out)
		}
	}
	if plain := string(render(t, Markdown, rep, Options{})); strings.Contains(plain, "](http") {
		t.Errorf("links without a BlobURL:\n%s", plain)
	}
}

// TestRDJSONEscapes: what the change controls reaches a review comment
// without a mention, a link or HTML.
func TestRDJSONEscapes(t *testing.T) {
	rep := warnReport()
	rep.Findings[0].Message = "see [here](https://evil.example) @org/team <img src=x>"
	var res rdResult
	if err := json.Unmarshal(render(t, RDJSON, rep, Options{}), &res); err != nil {
		t.Fatal(err)
	}
	msg := res.Diagnostics[0].Message
	for _, bad := range []string{"[here](", "@org", "<img"} {
		if strings.Contains(msg, bad) {
			t.Errorf("rdjson message keeps %q: %s", bad, msg)
		}
	}
}
