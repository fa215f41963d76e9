package pipeline

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/mod/modfile"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// forgedGoTests cross-checks HEAD's Go test results against HEAD's source:
// the testing package reports only functions that a _test.go file of the
// package declares (Test*, Fuzz*, Example*), so a reported test that no
// _test.go file of its package declares came from the code under test
// printing test2json's framing. Each such package is a test_regression: none
// of its results can be trusted. Packages outside the root module, and
// directories with a _test.go file that does not parse (the build fails
// there anyway), are not judged.
func forgedGoTests(repo *gitrepo.Repo, head plumbing.Hash, res *collectors.Result) []gate.Finding {
	if res == nil || res.Tests == nil {
		return nil
	}
	b, err := repo.ReadFile(head, "go.mod")
	if err != nil {
		return nil
	}
	mod := modfile.ModulePath(b)
	if mod == "" {
		return nil
	}
	type dirFuncs struct {
		funcs    map[string]string
		complete bool
	}
	dirs := map[string]*dirFuncs{}
	forged := map[string][]string{} // package -> undeclared names
	pkgDir := map[string]string{}
	for t := range res.Tests.All() {
		if t.Suite == "" || t.Suite != mod && !strings.HasPrefix(t.Suite, mod+"/") || !strings.HasPrefix(t.ID, t.Suite+".") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(t.ID, t.Suite+"."), "/")
		if name == "TestMain" && t.Outcome != collectors.Passed {
			continue // the parser's record of a binary that failed outside its tests
		}
		dir := strings.TrimPrefix(strings.TrimPrefix(t.Suite, mod), "/")
		if dir == "" {
			dir = "."
		}
		d := dirs[dir]
		if d == nil {
			d = &dirFuncs{funcs: map[string]string{}}
			d.complete = declaredGoFuncs(repo, head, dir, d.funcs)
			dirs[dir] = d
		}
		if !d.complete {
			continue
		}
		if _, ok := d.funcs[name]; !ok && !slices.Contains(forged[t.Suite], name) {
			forged[t.Suite] = append(forged[t.Suite], name)
			pkgDir[t.Suite] = dir
		}
	}
	pkgs := make([]string, 0, len(forged))
	for p := range forged {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var out []gate.Finding
	for _, p := range pkgs {
		names := forged[p]
		sort.Strings(names)
		msg := fmt.Sprintf("%s reported results for %s, which no _test.go file of %s declares at HEAD: the code under test printed test events of its own, so none of the package's results can be trusted.",
			p, clipText(strings.Join(names, ", "), 200), displayDir(pkgDir[p]))
		out = append(out, gate.Finding{
			ID:       gate.MakeID(gate.RuleForgedTestResults.Type, gate.RuleForgedTestResults.ID, "", p, ""),
			Type:     gate.RuleForgedTestResults.Type,
			Severity: gate.SeverityHigh,
			Symbol:   p,
			Net:      true,
			Message:  msg,
			Evidence: gate.EvidenceMeasured,
			Rule:     gate.RuleForgedTestResults.ID,
		})
	}
	return out
}

// displayDir names a repository directory in a message.
func displayDir(dir string) string {
	if dir == "." || dir == "" {
		return "the module's root directory"
	}
	return dir + "/"
}
