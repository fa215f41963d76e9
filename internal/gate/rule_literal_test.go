package gate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoRuleIDOutsideTheCatalogue keeps every rule id written once: a
// non-test Go file of the module other than the catalogue holding a string
// literal equal to a rule's id builds or compares findings from a string,
// which the catalogue's value (gate.RuleX, gate.RuleX.ID) replaces.
//
// The extractors under internal/testscan are left out: their marker kinds
// are a vocabulary of their own (they do not import gate), some of which
// the analyzer raises as the rule of the same name. notRuleIDs are the
// other literals that spell a rule id and mean something else.
func TestNoRuleIDOutsideTheCatalogue(t *testing.T) {
	notRuleIDs := map[string]bool{
		// The GitHub Actions key the rule is named after, read from
		// workflows' jobs and steps.
		"internal/analyze/ci/ciprogram.go\x00continue-on-error": true,
		"internal/analyze/ci/cisteps.go\x00continue-on-error":   true,
	}
	ids := map[string]bool{}
	for _, r := range Rules() {
		ids[r.ID] = true // a family's prefix too: its ids are built by Kind
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	catalogue := filepath.Join(root, "internal", "gate", "rules.go")
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			switch {
			case rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor"),
				filepath.ToSlash(rel) == "internal/testscan":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || p == catalogue {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !ids[s] {
				return true
			}
			rel, _ := filepath.Rel(root, p)
			if !notRuleIDs[filepath.ToSlash(rel)+"\x00"+s] {
				t.Errorf("%s: rule id %q written as a literal; use the catalogue's rule (internal/gate/rules.go)", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files under %s; the walk missed the module", files, root)
	}
}
