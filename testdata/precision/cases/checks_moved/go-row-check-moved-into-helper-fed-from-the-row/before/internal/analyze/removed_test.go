package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

const ecsBefore = `package ecs

import "strings"

func isStandaloneTask(group string) bool { return !strings.HasPrefix(group, "service:") }

func serviceName(group string) string {
	if isStandaloneTask(group) {
		return ""
	}
	return group[len("service:"):]
}
`

const ecsTestBefore = `package ecs

import "testing"

func TestIsStandaloneTask(t *testing.T) {
	if !isStandaloneTask("family:x") {
		t.Error("family:x is standalone")
	}
}

func TestServiceName(t *testing.T) {
	if got := serviceName("service:web"); got != "web" {
		t.Errorf("got %q", got)
	}
}
`

const ecsTestAfter = `package ecs

import "testing"

func TestServiceName(t *testing.T) {
	if got := serviceName("service:web"); got != "web" {
		t.Errorf("got %q", got)
	}
}
`

// A test deleted with the production code it was about is the removal to
// confirm (medium), not a test lost; the code renamed, or a helper the test
// merely used, keeps the deletion critical.
func TestDeletedWithCode(t *testing.T) {
	gone := `package ecs

import "strings"

func serviceName(group string) string {
	name, ok := strings.CutPrefix(group, "service:")
	if !ok {
		return ""
	}
	return name
}
`
	renamed := `package ecs

import "strings"

func standalone(group string) bool { return !strings.HasPrefix(group, "service:") }

func serviceName(group string) string {
	if standalone(group) {
		return ""
	}
	return group[len("service:"):]
}
`
	for _, c := range []struct {
		name, prod string
		sev        gate.Severity
		rule       string
	}{
		{"deleted", gone, gate.SeverityMedium, "test-deleted-with-code"},
		{"renamed", renamed, gate.SeverityCritical, "test-deleted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := run(mod("ecs.go", ecsBefore, c.prod), mod("ecs_test.go", ecsTestBefore, ecsTestAfter))
			var f gate.Finding
			for _, x := range fs {
				if x.Type == gate.TestDeletion {
					f = x
				}
			}
			if f.Severity != c.sev || f.Rule != c.rule || f.Test != "TestIsStandaloneTask" {
				t.Fatalf("got %s %s on %s, want %s %s: %s", f.Severity, f.Rule, f.Test, c.sev, c.rule, f.Message)
			}
			if c.rule == "test-deleted-with-code" && f.Symbol != "isStandaloneTask" {
				t.Errorf("symbol = %q, want isStandaloneTask", f.Symbol)
			}
		})
	}
}

// A Python test file deleted with the module it tested is one medium
// finding for the file.
func TestDeletedFileWithCode(t *testing.T) {
	mod1 := "def legacy_parse(text):\n    return text.split('/')\n\n\ndef legacy_join(parts):\n    return '/'.join(parts)\n"
	tests := "from pkg.legacy import legacy_parse, legacy_join\n\n\ndef test_legacy_parse():\n    assert legacy_parse('a/b') == ['a', 'b']\n\n\ndef test_legacy_join():\n    assert legacy_join(['a', 'b']) == 'a/b'\n"
	fs := Group(run(del("pkg/legacy.py", mod1), del("tests/test_legacy.py", tests)))
	var got []gate.Finding
	for _, f := range fs {
		if f.Type == gate.TestDeletion {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Rule != "test-file-deleted-with-code" || got[0].Severity != gate.SeverityMedium || len(got[0].Tests) != 2 {
		t.Fatalf("got %+v, want one medium test-file-deleted-with-code of 2 tests", got)
	}
}

// TestHeadCall reads the call an expression's whole value comes from, the
// reading checkedCode relies on to tell a check of deleted code from a check
// that only used it.
func TestHeadCall(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{`flagFromEnvOrFile(filePathTest.name, []string{filePathTest.path})#0`, "flagFromEnvOrFile"},
		{`utils.isAbsolute("c:\\")`, "isAbsolute"},
		{`trust_env_netrc({"NETRC": "/tmp/.netrc"})`, "trust_env_netrc"},
		{`await client.fetch(url)`, "fetch"},
		{`serviceName(prefix() + "web")`, "serviceName"},
		{`f(x) + g(y)`, ""},
		{`f(x)[0]`, ""},
		{`got`, ""},
		{`!isAbsolute(p)`, ""},
		{`(f)(x)`, ""},
		{`f(")")`, ""},
		{`f(x)#`, ""},
		{``, ""},
	} {
		if got := headCall(c.expr); got != c.want {
			t.Errorf("headCall(%q) = %q, want %q", c.expr, got, c.want)
		}
	}
}

func FuzzHeadCall(f *testing.F) {
	for _, s := range []string{`f(x)#0`, `a.b(c(d))`, `f("(")`, `#`, `(`, `await f()`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := headCall(s)
		if h != "" && !strings.Contains(s, h+"(") {
			t.Errorf("headCall(%q) = %q, which it does not call", s, h)
		}
	})
}

// TestQuotedIn keeps a special case alive only where code still spells its
// value as a string: not in a comment's line.
func TestQuotedIn(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"var aliases = { 'back': referrer }\n", true},
		{"if (url === \"back\") {}\n", true},
		{"x := `back`\n", true},
		{" * The given `url` can also be \"back\", which redirects\n", false},
		{"// \"back\" is an alias for the referrer\n", false},
		{"# mode \"back\" was removed\n", false},
		{"f() // \"back\"\n", true}, // a comment after code reads as code: the safe way
		{"callback()\n", false},
		{"'backward'\n", false},
	} {
		if got := quotedIn([][]byte{[]byte(c.src)}, "back"); got != c.want {
			t.Errorf("quotedIn(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

func TestCalledIn(t *testing.T) {
	got := strings.Join(calledIn(`run_command(lazy) is lazy and app.cli.load(x)[0] + len(y) - (z)`), ",")
	if want := "run_command,load,len"; got != want {
		t.Errorf("calledIn = %q, want %q", got, want)
	}
}

func FuzzCalledIn(f *testing.F) {
	for _, s := range []string{"f(x)", "a.b(c(d))", "(", "x(", "é(1)", "run_command(lazy) is lazy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, name := range calledIn(s) {
			if name == "" || !strings.Contains(s, name+"(") {
				t.Fatalf("calledIn(%q) names %q, which it does not call", s, name)
			}
		}
	})
}
