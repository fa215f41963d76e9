package analyze

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// The assertion library is part of every test that calls it. A change that
// swaps it for other code (go.mod's replace pointing at a local copy, a
// package.json dependency turned into file:, link: or an npm: alias) can
// make every assertion pass without touching a test.

// goAssertModules are the Go modules tests assert through.
var goAssertModules = map[string]bool{
	"github.com/stretchr/testify": true, "github.com/google/go-cmp": true, "gotest.tools/v3": true, "gotest.tools": true,
	"github.com/onsi/gomega": true, "github.com/onsi/ginkgo/v2": true, "github.com/onsi/ginkgo": true,
	"github.com/matryer/is": true, "github.com/frankban/quicktest": true, "github.com/go-quicktest/qt": true,
	"github.com/go-test/deep": true, "github.com/maxatome/go-testdeep": true, "github.com/smartystreets/goconvey": true,
	"gopkg.in/check.v1": true, "github.com/alecthomas/assert/v2": true, "github.com/google/go-cmp/cmp": true,
	"github.com/kr/pretty": false, "github.com/shoenig/test": true, "github.com/carlmjohnson/be": true,
}

// jsAssertPackages are the npm packages tests run or assert through.
var jsAssertPackages = map[string]bool{
	"jest": true, "vitest": true, "mocha": true, "chai": true, "expect": true, "@jest/expect": true, "@jest/globals": true,
	"should": true, "assert": true, "power-assert": true, "uvu": true, "ava": true, "tap": true, "jasmine": true,
	"@testing-library/jest-dom": true, "expect.js": true, "sinon": true, "@vitest/expect": true, "jest-extended": true,
}

// compareAssertLibs reports an assertion library replaced by other code.
func (a *Analyzer) compareAssertLibs(pr *pair) []gate.Finding {
	if pr.fc.NewPath == "" || pr.fc.New == nil {
		return nil
	}
	switch path.Base(pr.fc.NewPath) {
	case "go.mod":
		if bytes.Contains(pr.fc.New, []byte("replace")) && !sameArrows(pr.fc.Old, pr.fc.New) {
			return goReplaces(pr.fc.NewPath, pr.fc.Old, pr.fc.New)
		}
	case "package.json":
		if bytes.Contains(pr.fc.New, []byte(`"file:`)) || bytes.Contains(pr.fc.New, []byte(`"link:`)) ||
			bytes.Contains(pr.fc.New, []byte(`"npm:`)) || bytes.Contains(pr.fc.New, []byte(`"portal:`)) ||
			bytes.Contains(pr.fc.New, []byte(`"./`)) || bytes.Contains(pr.fc.New, []byte(`"../`)) {
			return jsAliases(pr.fc.NewPath, pr.fc.Old, pr.fc.New)
		}
	}
	return nil
}

func goReplaces(p string, old, cur []byte) []gate.Finding {
	read := func(data []byte) map[string]string {
		m := map[string]string{}
		if data == nil {
			return m
		}
		f, err := modfile.Parse(p, data, nil)
		if err != nil {
			return nil
		}
		for _, r := range f.Replace {
			to := r.New.Path
			if r.New.Version != "" {
				to += "@" + r.New.Version
			}
			m[r.Old.Path] = to
		}
		return m
	}
	before, after := read(old), read(cur)
	if after == nil && before != nil {
		return []gate.Finding{ci.UnreadableManifest(p, "its replace directives")}
	}
	if before == nil || after == nil {
		return nil
	}
	var out []gate.Finding
	for _, mod := range ci.SortedKeys(after) {
		to := after[mod]
		if !goAssertModules[mod] || before[mod] == to {
			continue
		}
		sev := gate.SeverityHigh
		what := "a local copy"
		if !modfile.IsDirectoryPath(strings.SplitN(to, "@", 2)[0]) {
			what = "another module"
			sev = gate.SeverityMedium // a fork with a fix is a known practice
		}
		out = append(out, gate.NewFinding(gate.RuleAssertionLibReplaced, sev, p, ci.LineOf(cur, mod), "", "", mod+"=>"+to,
			fmt.Sprintf("%s now replaces the assertion library %s with %s (%s): every assertion the tests make through it runs that code instead.", p, mod, what, to)))
	}
	return out
}

func jsAliases(p string, old, cur []byte) []gate.Finding {
	read := func(data []byte) map[string]string {
		m := map[string]string{}
		if data == nil {
			return m
		}
		var pkg map[string]json.RawMessage
		if json.Unmarshal(data, &pkg) != nil {
			return nil
		}
		for _, sec := range []string{"dependencies", "devDependencies", "overrides", "resolutions", "pnpm"} {
			var deps map[string]any
			if json.Unmarshal(pkg[sec], &deps) != nil {
				continue
			}
			for name, v := range deps {
				if s, ok := v.(string); ok {
					m[name] = s
				}
			}
		}
		return m
	}
	before, after := read(old), read(cur)
	if before == nil || after == nil {
		return nil
	}
	var out []gate.Finding
	for _, n := range ci.SortedKeys(after) {
		to := after[n]
		if !jsAssertPackages[n] || before[n] == to || !localSpec(to) || localSpec(before[n]) {
			continue
		}
		out = append(out, gate.NewFinding(gate.RuleAssertionLibReplaced, gate.SeverityHigh, p, ci.LineOf(cur, `"`+n+`"`), "", "", n+"=>"+to,
			fmt.Sprintf("%s now takes the test library %s from %s: every assertion the tests make through it runs that code instead.", p, n, ci.Quoted(to))))
	}
	return out
}

// localSpec reports a dependency taken from the repository or under
// another name (file:, link:, portal:, npm:other@).
func localSpec(v string) bool {
	return strings.HasPrefix(v, "file:") || strings.HasPrefix(v, "link:") || strings.HasPrefix(v, "portal:") ||
		strings.HasPrefix(v, "npm:") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../")
}

// sameArrows reports two go.mod versions whose replace lines (the lines with
// "=>") are the same: a dependency bump that left the replacements alone.
func sameArrows(a, b []byte) bool {
	pick := func(d []byte) []byte {
		var out []byte
		for _, l := range bytes.Split(d, []byte("\n")) {
			if bytes.Contains(l, []byte("=>")) {
				out = append(append(out, bytes.TrimSpace(l)...), '\n')
			}
		}
		return out
	}
	return a != nil && bytes.Equal(pick(a), pick(b))
}
