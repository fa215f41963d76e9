package codex

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

const calcTest = `package calc

import "testing"

func TestSub(t *testing.T) {
	if got := Sub(3, 1); got != 2 {
		t.Fatalf("Sub(3, 1) = %d, want 2", got)
	}
}

func TestAdd(t *testing.T) {
	if Add(1, 1) != 2 {
		t.Fatal("add")
	}
}
`

func TestParsePatchApply(t *testing.T) {
	tests := []struct {
		name  string
		patch string
		// want maps each change's path to its content after the patch
		// ("-" for a deletion, "!" for a change that fails).
		want map[string]string
		move string
	}{
		{
			name:  "update with context",
			patch: "*** Begin Patch\n*** Update File: calc_test.go\n@@ func TestSub(t *testing.T) {\n-\tif got := Sub(3, 1); got != 2 {\n+\tif got := Sub(3, 1); got != 3 {\n*** End Patch\n",
			want:  map[string]string{"calc_test.go": replace(calcTest, "got != 2 {", "got != 3 {")},
		},
		{
			name:  "delete a test by removing its lines",
			patch: "*** Begin Patch\n*** Update File: calc_test.go\n@@\n-func TestAdd(t *testing.T) {\n-\tif Add(1, 1) != 2 {\n-\t\tt.Fatal(\"add\")\n-\t}\n-}\n*** End Patch",
			want:  map[string]string{"calc_test.go": replace(calcTest, "func TestAdd(t *testing.T) {\n\tif Add(1, 1) != 2 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n", "")},
		},
		{
			name:  "white space differs at the end of a line",
			patch: "*** Begin Patch\n*** Update File: calc_test.go\n-\t\tt.Fatal(\"add\")   \n+\t\tt.Log(\"add\")\n*** End Patch",
			want:  map[string]string{"calc_test.go": replace(calcTest, `t.Fatal("add")`, `t.Log("add")`)},
		},
		{
			name:  "a hunk that is not in the file fails",
			patch: "*** Begin Patch\n*** Update File: calc_test.go\n-nothing like this\n+x\n*** End Patch",
			want:  map[string]string{"calc_test.go": "!"},
		},
		{
			name:  "add, move and delete",
			patch: "*** Begin Patch\n*** Add File: b_test.go\n+package calc\n+\n*** Update File: calc_test.go\n*** Move to: sub_test.go\n@@\n-func TestAdd(t *testing.T) {\n+func TestAddOne(t *testing.T) {\n*** Delete File: old_test.go\n*** End Patch\n",
			want: map[string]string{
				"b_test.go":    "package calc\n\n",
				"calc_test.go": replace(calcTest, "func TestAdd(", "func TestAddOne("),
				"old_test.go":  "-",
			},
			move: "sub_test.go",
		},
		{
			name:  "inside a heredoc",
			patch: "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: calc_test.go\n*** End Patch\nEOF\n",
			want:  map[string]string{"calc_test.go": "-"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePatch(tc.patch)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, ch := range p.Changes() {
				switch {
				case ch.Delete:
					got[ch.Path] = "-"
				default:
					out, err := ch.Apply([]byte(calcTest), true)
					switch {
					case errors.Is(err, agent.ErrNoChange):
						got[ch.Path] = "!"
					case err != nil:
						t.Fatal(err)
					default:
						got[ch.Path] = string(out)
					}
					if ch.Path == "calc_test.go" && ch.MoveTo != tc.move {
						t.Errorf("%s moves to %q, want %q", ch.Path, ch.MoveTo, tc.move)
					}
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("files (-want +got):\n%s", d)
			}
		})
	}
}

func TestParsePatchRefused(t *testing.T) {
	for name, patch := range map[string]string{
		"no begin":        "*** Update File: a\n-x\n*** End Patch",
		"no end":          "*** Begin Patch\n*** Delete File: a\n",
		"no file":         "*** Begin Patch\n*** End Patch",
		"line before":     "*** Begin Patch\nhello\n*** Delete File: a\n*** End Patch",
		"bad added line":  "*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch",
		"bad update line": "*** Begin Patch\n*** Update File: a\n?x\n*** End Patch",
	} {
		if _, err := ParsePatch(patch); err == nil {
			t.Errorf("%s: parsed, want an error", name)
		}
	}
}

func FuzzParsePatch(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a_test.go\n@@ func TestX\n-a\n+b\n*** End of File\n*** End Patch", calcTest)
	f.Add("*** Begin Patch\n*** Add File: x\n+1\n*** Delete File: y\n*** End Patch", "")
	f.Fuzz(func(t *testing.T, patch, file string) {
		p, err := ParsePatch(patch)
		if err != nil {
			return
		}
		for _, ch := range p.Changes() {
			if ch.Path == "" && !ch.Delete && ch.Apply == nil {
				t.Fatalf("change without path: %+v", ch)
			}
			if ch.Apply != nil {
				_, _ = ch.Apply([]byte(file), true)
				_, _ = ch.Apply(nil, false)
			}
		}
	})
}

func replace(s, old, repl string) string { return strings.Replace(s, old, repl, 1) }
