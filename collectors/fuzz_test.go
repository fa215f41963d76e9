package collectors

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzParser seeds a fuzz target with the recorded fixtures of the format and
// extra inputs, and checks that the parser never panics, fails only with a
// *ParseError naming the file, and returns self-consistent results.
func fuzzParser(f *testing.F, p Parser, extra ...string) {
	paths, _ := filepath.Glob(filepath.Join("testdata", p.Format(), "*"))
	for _, path := range paths {
		if strings.HasSuffix(path, ".cmd") || strings.HasSuffix(path, ".golden") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := p.Parse("fuzz.in", bytes.NewReader(data))
		if err != nil {
			var pe *ParseError
			if r != nil || !errors.As(err, &pe) || pe.File != "fuzz.in" || pe.Format != p.Format() {
				t.Fatalf("result %v, error %T %v: want nil and a *ParseError for fuzz.in", r, err, err)
			}
			return
		}
		checkInvariants(t, r)
		m := Merge(r, r)
		checkInvariants(t, m)
		// A report merged with itself has the same branches, each taken
		// as often as twice.
		if bf, bh := r.Coverage.Branches(); r.Coverage != nil {
			if mf, mh := m.Coverage.Branches(); mf != bf || mh != bh {
				t.Fatalf("merged with itself: %d of %d branches, was %d of %d", mh, mf, bh, bf)
			}
		}
	})
}

func checkInvariants(t *testing.T, r *Result) {
	t.Helper()
	if r.Tests != nil {
		c := r.Tests.Counts()
		if c.Total != c.Passed+c.Failed+c.Skipped+c.Errored || c.Total != r.Tests.Len() {
			t.Fatalf("counts %+v do not add up to %d tests", c, r.Tests.Len())
		}
		for tc := range r.Tests.All() {
			got, ok := r.Tests.Get(tc.ID)
			if !ok || got.ID != tc.ID || got.Outcome != tc.Outcome {
				t.Fatalf("Get(%q) = %+v, %v; All gave %+v", tc.ID, got, ok, tc)
			}
			if len(tc.Message) > MaxMessageBytes {
				t.Fatalf("message of %d bytes", len(tc.Message))
			}
		}
	}
	if r.Coverage != nil {
		if pct, ok := r.Coverage.Percent(); ok && (pct < 0 || pct > 100) {
			t.Fatalf("coverage %v%%", pct)
		}
		for _, fc := range r.Coverage.Files {
			found, hit := fc.Lines()
			if hit > found || len(fc.LineHits()) != found {
				t.Fatalf("%s: %d hit of %d found, %d line records", fc.Path, hit, found, len(fc.LineHits()))
			}
			if total, h := fc.Statements(); h > total {
				t.Fatalf("%s: %d of %d statements", fc.Path, h, total)
			}
			checkBranches(t, fc)
		}
		pct, ok := r.Coverage.BranchPercent()
		if found, _ := r.Coverage.Branches(); ok != (found > 0 || r.Coverage.StatedBranch != nil) || pct < 0 || pct > 100 {
			t.Fatalf("branch coverage %v%% (ok %v) of %d branches", pct, ok, found)
		}
	}
	for _, d := range []*Diagnostics{r.Lint, r.TypeCheck} {
		if d == nil {
			continue
		}
		var e, w int
		for _, rc := range d.Rules {
			e += rc.Errors
			w += rc.Warnings
		}
		if e != d.Errors || w != d.Warnings {
			t.Fatalf("rules add up to %d, %d; totals %d, %d", e, w, d.Errors, d.Warnings)
		}
	}
}

// checkBranches checks a file's branches: sorted and unique LCOV records,
// conditions within their lines, and the counts adding up.
func checkBranches(t *testing.T, fc *FileCoverage) {
	t.Helper()
	found, hit := fc.Branches()
	var n, h int64
	bs := fc.BranchHits()
	for i, b := range bs {
		n++
		if b.Taken > 0 {
			h++
		}
		if i > 0 {
			p := bs[i-1]
			if p.Line > b.Line || (p.Line == b.Line && p.Block == b.Block && p.Branch == b.Branch) {
				t.Fatalf("%s: branches out of order or repeated: %+v then %+v", fc.Path, p, b)
			}
		}
	}
	for _, c := range fc.Conditions() {
		if c.Covered > c.Valid || c.Valid <= 0 {
			t.Fatalf("%s: line %d has %d of %d conditions covered", fc.Path, c.Line, c.Covered, c.Valid)
		}
		n += int64(c.Valid)
		h += int64(c.Covered)
	}
	if n != found || h != hit || hit > found {
		t.Fatalf("%s: Branches() = %d, %d; the records add up to %d, %d", fc.Path, found, hit, n, h)
	}
}

func FuzzGoTest(f *testing.F) {
	fuzzParser(f, GoTest{},
		ev("start", "p", "", "")+ev("run", "p", "TestA", "")+ev("run", "p", "TestA/b", "")+ev("fail", "p", "TestA/b", "")+ev("fail", "p", "", ""),
		"# p\n"+`{"Action":"fail","Package":"p","FailedBuild":"p [p.test]"}`+"\n",
		`{"ImportPath":"x","Action":"build-fail"}`)
}

func FuzzJUnit(f *testing.F) {
	fuzzParser(f, JUnit{},
		`<testsuite name="s"><testcase name="a"><failure message="m">x</failure></testcase><testcase classname="c" name="b"><skipped/></testcase></testsuite>`,
		`<testsuites><testcase name="top"/><testsuite><testsuite name="in"><testcase classname="k" name="k"/></testsuite></testsuite></testsuites>`)
}

func FuzzCoverProfile(f *testing.F) {
	fuzzParser(f, CoverProfile{}, "mode: count\na.go:1.2,3.4 5 6\nmode: count\na.go:1.2,3.4 5 1\n")
}

func FuzzLCOV(f *testing.F) {
	fuzzParser(f, LCOV{}, "SF:a\nDA:1,1\nDA:99999999,0\nBRDA:1,0,0,-\nend_of_record\n",
		"SF:a\nBRDA:3,e0,(a, b),2\nBRDA:1,1,0,0\nBRDA:1,0,1,1\nBRDA:0,007,x,-\nBRF:4\nBRH:2\nend_of_record\nSF:a\nBRDA:1,0,1,-\nBRDA:1,0,2,1\nend_of_record\n")
}

func FuzzCobertura(f *testing.F) {
	fuzzParser(f, Cobertura{}, `<coverage line-rate="0.5"><packages><package><classes><class filename="a"><lines><line number="1" hits="0"/></lines></class></classes></package></packages></coverage>`,
		`<coverage line-rate="0.5" branch-rate="0.25" branches-valid="4"><packages><package><classes><class filename="a"><lines><line number="1" hits="0" branch="true" condition-coverage="50% (1/2)"/></lines></class><class filename="a"><lines><line number="1" hits="2" branch="true" condition-coverage="0% (0/3)"/></lines></class></classes></package></packages></coverage>`)
}

func FuzzSARIF(f *testing.F) {
	fuzzParser(f, SARIF{}, `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r","defaultConfiguration":{"level":"error"}}]}},"results":[{"ruleIndex":0},{"rule":{"toolComponent":{"index":0}}}]}]}`)
}

func FuzzCheckstyle(f *testing.F) {
	fuzzParser(f, Checkstyle{}, `<checkstyle><file name="a"><error severity="warning" source="s"/></file></checkstyle>`)
}

func FuzzESLint(f *testing.F) {
	fuzzParser(f, ESLint{}, `[{"filePath":"a","messages":[{"ruleId":null,"fatal":true,"severity":2}],"errorCount":1,"warningCount":0}]`)
}

func FuzzGolangCI(f *testing.F) {
	fuzzParser(f, GolangCI{}, `{"Issues":[{"FromLinter":"x","Severity":"warning"}],"Report":{}}`+"\n1 issues:\n")
}

func FuzzTSC(f *testing.F) {
	fuzzParser(f, TSC{}, "a.ts(1,2): error TS1: x\nFound 1 error.\n")
}

// FuzzTests adds the lines of the input as test ids, split into suite and
// name in different ways, and checks the set against a map.
func FuzzTests(f *testing.F) {
	f.Add([]byte("pkg.TestA\npkg.TestA/sub\npkg.TestB\ns > case\npkg.TestA\nplain\n"))
	f.Add([]byte(strings.Repeat("github.com/x/y.TestSomething/case_1\ngithub.com/x/y.TestSomething/case_2\n", 40)))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ts Tests
		want := map[string]int{}
		for i, id := range strings.Split(string(data), "\n") {
			if id == "" {
				continue
			}
			tc := Test{ID: id, Outcome: Outcome(i%4 + 1)}
			if suite, name, ok := strings.Cut(id, "."); ok && suite != "" && i%3 == 1 {
				tc = Test{Suite: suite, Name: name, Outcome: tc.Outcome}
			} else if suite, name, ok := strings.Cut(id, " > "); ok && suite != "" && i%3 == 2 {
				tc = Test{ID: id, Suite: suite, Name: name, Outcome: tc.Outcome}
			}
			if !ts.Add(tc) {
				t.Fatalf("Add(%+v) failed", tc)
			}
			want[id]++
		}
		if ts.Len() != len(want) {
			t.Fatalf("Len() = %d, want %d distinct ids", ts.Len(), len(want))
		}
		for id, runs := range want {
			got, ok := ts.Get(id)
			if !ok || got.ID != id || got.Runs != runs {
				t.Fatalf("Get(%q) = %+v, %v; want %d runs", id, got, ok, runs)
			}
		}
		ids := ts.IDs()
		for i := 1; i < len(ids); i++ {
			if ids[i-1] >= ids[i] {
				t.Fatalf("IDs() not sorted and distinct: %q, %q", ids[i-1], ids[i])
			}
		}
	})
}

func FuzzCargoTest(f *testing.F) {
	fuzzParser(f, CargoTest{},
		"running 1 test\ntest a ... ok\n",
		"running 2 tests\ntest a ... FAILED\n---- a stdout ----\nboom\nfailures:\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n",
		"     Running tests/x.rs (target/debug/deps/x-0123456789abcdef)\nrunning 1 test\ntest y ...      Running unittests src/main.rs (target/debug/deps/m-0123456789abcdef)\nrunning 0 tests\n",
		"error: could not compile `c` (lib test) due to 1 previous error\n",
		"test a ... ok\n")
}

func FuzzMaven(f *testing.F) {
	fuzzParser(f, Maven{},
		"[INFO] ------< ex:calc >------\n[INFO] --- maven-surefire-plugin:2.22.3:test (default-test) @ calc ---\n[INFO] Running ex.A\n[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s - in ex.A\n",
		"[INFO] ------< ex:calc >------\n[INFO] Running ex.B\nThe forked VM terminated without properly saying goodbye. VM crash or System.exit called?\nCrashed tests:\nex.B\n\n",
		"[INFO] ------< ex:core >------\n[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.10.1:testCompile (default-testCompile) on project core: Compilation failure\n[ERROR] /src/A.java:[5,50] cannot find symbol\n[ERROR] -> [Help 1]\n",
		"[INFO] \x1b[1m------< ex:api >------\x1b[m\n[INFO] api .......... SKIPPED\n[ERROR] Failed to execute goal on project api: Could not resolve dependencies -> [Help 1]\n",
		"Crashed tests:\nex.C\n")
}

func FuzzGradle(f *testing.F) {
	fuzzParser(f, Gradle{},
		":compileJava\n:test\n\nBUILD SUCCESSFUL in 1s\n",
		":core:compileTestJava FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':core:compileTestJava'.\n> Compilation failed\n\n* Try:\nx\n\nBUILD FAILED in 2s\n",
		"* What went wrong:\nExecution failed for task ':test'.\n> Process 'Gradle Test Executor 1' finished with non-zero exit value 1\n\nBUILD FAILED\n",
		"* What went wrong:\nCould not resolve all files for configuration ':api:testCompileClasspath'.\n> Could not find x:y:1.\n",
		"* What went wrong:\nA problem occurred evaluating root project 'x'.\n\x1b[31m> boom\x1b[0m\nBUILD FAILED\n")
}
