package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestPyBlock(t *testing.T) {
	src := strings.Split(`def test_x():
    with pytest.deprecated_call(
        match="old",
    ):

        @app.before_first_request
        def first():
            flag = True  # set (in a comment: ")"

    after = 1
    pytest.deprecated_call(run, "a, (b")
    x = 2`, "\n")
	tests := []struct{ line, want int }{
		{2, 8},   // a with statement: its block, blank lines inside it too
		{11, 11}, // a call: its own line, brackets in strings ignored
		{10, 10},
		{0, 0}, // out of range: itself
		{99, 99},
	}
	for _, tt := range tests {
		if got := pyBlock(src, tt.line); got != tt.want {
			t.Errorf("pyBlock(%d) = %d, want %d", tt.line, got, tt.want)
		}
	}
}

func TestAssignedName(t *testing.T) {
	tests := map[string]string{
		"    app = find_app(Module)":       "app",
		"    count += 1":                   "count",
		"    flag: bool = True":            "flag",
		"    with open(p) as fh:":          "fh",
		"    assert app == other":          "",
		"    if a == b:":                   "",
		"    call(x=1)":                    "",
		`    x = "a"  # y = 2`:             "x",
		"    nonlocal first_called":        "",
		"    value //= 2":                  "value",
		"    with pytest.raises(E) as ei:": "ei",
	}
	for l, want := range tests {
		if got := assignedName(l); got != want {
			t.Errorf("assignedName(%q) = %q, want %q", l, got, want)
		}
	}
}

func TestNoticeOf(t *testing.T) {
	notices := []string{"'before_first_request' is deprecated and will be removed", "the 'info' argument is deprecated and will not be"}
	lines := strings.Split(`    with pytest.deprecated_call():
        @app.before_first_request
        def first():
            pass
    with pytest.deprecated_call(match="'info' argument"):
        app = find_app("info", Module)
    with pytest.deprecated_call(match="legacy mode"):
        app = find_app("info", Module)
    with pytest.deprecated_call():
        app.before_first(x)`, "\n")
	check := func(line int, expected string) string {
		x := testscan.Assertion{Line: line, Kind: "pytest.deprecated_call", Expected: expected}
		return noticeOf(x, lines, pyBlock(lines, line), notices)
	}
	if got := check(1, ""); got != notices[0] {
		t.Errorf("a block calling the retired API: %q", got)
	}
	if got := check(5, ` match="'info' argument"`); got != notices[1] {
		t.Errorf("match= text in a retired notice: %q", got)
	}
	if got := check(7, ` match="legacy mode"`); got != "" {
		t.Errorf("match= text in no retired notice: %q", got)
	}
	// before_first is part of a retired name, not the name.
	if got := check(9, ""); got != "" {
		t.Errorf("a block naming no retired API: %q", got)
	}
}

func TestDeprecationCheck(t *testing.T) {
	tests := []struct {
		x    testscan.Assertion
		want bool
	}{
		{testscan.Assertion{Kind: "pytest.deprecated_call"}, true},
		{testscan.Assertion{Kind: "pytest.warns", Subject: "DeprecationWarning"}, true},
		{testscan.Assertion{Kind: "self.assertWarns", Subject: "FutureWarning"}, true},
		{testscan.Assertion{Kind: "pytest.warns", Subject: "UserWarning"}, false},
		{testscan.Assertion{Kind: "pytest.raises", Subject: "DeprecationWarning"}, false},
	}
	for _, tt := range tests {
		if got := deprecationCheck(tt.x); got != tt.want {
			t.Errorf("deprecationCheck(%+v) = %v", tt.x, got)
		}
	}
}

func FuzzPyBlock(f *testing.F) {
	f.Add("with pytest.deprecated_call(\n  match='x'):\n    a = 1\n\nb = 2", 1)
	f.Add("x = (\"(\" # )\n)", 1)
	f.Add("", 0)
	f.Fuzz(func(t *testing.T, src string, line int) {
		lines := strings.Split(src, "\n")
		end := pyBlock(lines, line)
		if line >= 1 && line <= len(lines) && (end < line || end > len(lines)) {
			t.Fatalf("pyBlock(%d) = %d of %d lines", line, end, len(lines))
		}
		for _, l := range lines {
			assignedName(l)
			codeNames(l)
		}
	})
}
