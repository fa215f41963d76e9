package mutate

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	pylex "github.com/ralph-gate/ralph-gate/internal/testscan/python"
)

// tokBrief is what a mutator's table tests compare of a mutant.
type tokBrief struct {
	Line              int
	Operator          string
	Original, Mutated string
}

func tokBriefs(ms []Mutant) []tokBrief {
	var out []tokBrief
	for _, m := range ms {
		out = append(out, tokBrief{m.Line, m.Operator, m.Original, m.Mutated})
	}
	return out
}

// pyMutantCases are sources, the lines asked and the mutants expected.
var pyMutantCases = []struct {
	name  string
	src   string
	lines []int
	want  []tokBrief
}{
	{
		name:  "the boundary of a comparison with an integer literal first",
		src:   "def f(a, b):\n    if a < b and b >= 0:\n        return 1\n    return 0\n",
		lines: []int{2},
		want:  []tokBrief{{2, "boundary", "if a < b and b >= 0:", "if a < b and b > 0:"}},
	},
	{
		name: "relational",
		src: "def f(a, b, d, k):\n" +
			"    x = a == b\n" +
			"    y = a != b\n" +
			"    z = a is None\n" +
			"    w = a is not None\n" +
			"    v = k in d\n" +
			"    u = k not in d\n" +
			"    return [x for x in d if x in k]\n",
		lines: []int{2, 3, 4, 5, 6, 7, 8},
		want: []tokBrief{
			{2, "relational", "x = a == b", "x = a != b"},
			{3, "relational", "y = a != b", "y = a == b"},
			{4, "relational", "z = a is None", "z = a is not None"},
			{5, "relational", "w = a is not None", "w = a is None"},
			{6, "relational", "v = k in d", "v = k not in d"},
			{7, "relational", "u = k not in d", "u = k in d"},
			{8, "relational", "return [x for x in d if x in k]", "return [x for x in d if x not in k]"},
		},
	},
	{
		name:  "logical",
		src:   "ok = ready or forced and not stale\n",
		lines: []int{1},
		want:  []tokBrief{{1, "logical", "ok = ready or forced and not stale", "ok = ready and forced and not stale"}},
	},
	{
		name: "negate-condition",
		src: "def f(a, b, done, xs):\n" +
			"    if ready(a):\n" +
			"        pass\n" +
			"    while not done:\n" +
			"        done = step()\n" +
			"    if x:\n" +
			"        pass\n" +
			"    elif not a or b:\n" +
			"        pass\n" +
			"    if (n := len(xs)):\n" +
			"        pass\n" +
			"    if a: return b\n",
		lines: []int{2, 4, 8, 10, 12},
		want: []tokBrief{
			{2, "negate-condition", "if ready(a):", "if not (ready(a)):"},
			{4, "negate-condition", "while not done:", "while done:"},
			{8, "logical", "elif not a or b:", "elif not a and b:"},
			{10, "negate-condition", "if (n := len(xs)):", "if not ((n := len(xs))):"},
			{12, "negate-condition", "if a: return b", "if not (a): return b"},
		},
	},
	{
		name: "negate a multi-line condition wraps all of it",
		src: "def f(a, b):\n" +
			"    if (a\n" +
			"            + b):\n" +
			"        return 1\n",
		lines: []int{2},
		want:  []tokBrief{{2, "negate-condition", "if (a", "if not ((a"}},
	},
	{
		name: "arithmetic, binary only, no string concatenation",
		src: "def f(a, b, c, name, args):\n" +
			"    t = a + b * c\n" +
			"    u = -a\n" +
			"    v = a * b / c\n" +
			"    s = 'x' + name\n" +
			"    w = name + f'{a}'\n" +
			"    p = a ** 2\n" +
			"    q = xs[1:-1]\n" +
			"    r = a - -b\n" +
			"    g(*args, **c)\n" +
			"    return a // b\n",
		lines: []int{2, 3, 4, 5, 6, 7, 8, 9},
		want: []tokBrief{
			{2, "arithmetic", "t = a + b * c", "t = a - b * c"},
			{4, "arithmetic", "v = a * b / c", "v = a / b / c"},
			{9, "arithmetic", "r = a - -b", "r = a + -b"},
		},
	},
	{
		name: "increment",
		src: "def f(n, s):\n" +
			"    n += 1\n" +
			"    n -= 2\n" +
			"    s += 'tail'\n",
		lines: []int{2, 3, 4},
		want: []tokBrief{
			{2, "increment", "n += 1", "n -= 1"},
			{3, "increment", "n -= 2", "n += 2"},
		},
	},
	{
		name: "zero-return",
		src: "class A:\n" +
			"    def f(self, xs):\n" +
			"        return compute(xs)\n" +
			"    def g(self):\n" +
			"        return True\n" +
			"    def h(self):\n" +
			"        return False\n" +
			"    def i(self):\n" +
			"        return None\n" +
			"    def j(self):\n" +
			"        return\n" +
			"    def k(self):\n" +
			"        return self.cache\n" +
			"    def m(self):\n" +
			"        return (1,\n" +
			"                2)\n",
		lines: []int{3, 5, 7, 9, 11, 13, 15},
		want: []tokBrief{
			{3, "zero-return", "return compute(xs)", "return None"},
			{5, "zero-return", "return True", "return False"},
			{7, "zero-return", "return False", "return True"},
			{15, "zero-return", "return (1,", "return None"},
		},
	},
	{
		name: "remove-statement keeps the indentation",
		src: "class A:\n" +
			"    async def f(self, x):\n" +
			"        self.items.append(x)\n" +
			"        await self.client.close()\n" +
			"        self.items[0].sort(key=len)\n" +
			"        self.items[0]\n" +
			"        notify(x); notify(x)\n",
		lines: []int{3, 4, 5, 6, 7},
		want: []tokBrief{
			{3, "remove-statement", "self.items.append(x)", "pass"},
			{4, "remove-statement", "await self.client.close()", "pass"},
			{5, "remove-statement", "self.items[0].sort(key=len)", "pass"},
			{7, "remove-statement", "notify(x); notify(x)", "pass; notify(x)"},
		},
	},
	{
		name: "nothing inside strings, f-strings, comments",
		src: "def f(a, b):\n" +
			"    s = 'a < b and c == d'\n" +
			"    t = f\"{a < b} {a + b!r:>{b - 1}}\"\n" +
			"    u = \"\"\"\n" +
			"    if a < b: return a + b\n" +
			"    \"\"\"\n" +
			"    x = 1  # a < b or a == b\n" +
			"    y = rb'a<b' b'\\x00' + rb'\\d+'\n",
		lines: []int{2, 3, 4, 5, 6, 7, 8},
		want:  nil,
	},
	{
		name: "nothing in decorators, imports, def and class headers",
		src: "import os, sys\n" +
			"from a.b import (c,\n" +
			"    d)\n" +
			"@retry(times=1 + 2, when=lambda e: e is None)\n" +
			"def f(a=1 + 2, b: int = -1, *args, **kw) -> bool:\n" +
			"    return a\n" +
			"class K(Base, metaclass=M if a < b else N):\n" +
			"    x: int = 1\n" +
			"def g(x): return x + 1\n",
		lines: []int{1, 2, 3, 4, 5, 7, 8, 9},
		want:  []tokBrief{{9, "arithmetic", "def g(x): return x + 1", "def g(x): return x - 1"}},
	},
	{
		name: "match statement: patterns frozen, guards mutated",
		src: "def f(p):\n" +
			"    match p:\n" +
			"        case -1 | 2 + 3j:\n" +
			"            return 0\n" +
			"        case [x, *rest] if x > 0:\n" +
			"            return x\n" +
			"    case = 1 + 2\n",
		lines: []int{3, 5, 7},
		want: []tokBrief{
			{5, "boundary", "case [x, *rest] if x > 0:", "case [x, *rest] if x >= 0:"},
			{7, "arithmetic", "case = 1 + 2", "case = 1 - 2"},
		},
	},
	{
		name: "arid lines",
		src: "def f(a, b, d):\n" +
			"    '''Docstring: a < b.'''\n" +
			"    logger.info('n=%d', a + b)\n" +
			"    logging.debug(\n" +
			"        'x', a - b)\n" +
			"    print(a + b)\n" +
			"    warnings.warn('w' if a < b else 'v')\n" +
			"    self.log.error(a == b)\n" +
			"    assert a < b\n" +
			"    del d[a + 1]\n" +
			"    pass\n" +
			"    try:\n" +
			"        go(a)\n" +
			"    except KeyError as err:\n" +
			"        raise ValueError(a + 1) from err\n" +
			"    return self.value\n",
		lines: []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16},
		want:  nil,
	},
	{
		name:  "one mutant per line, lines asked twice, out of range ignored",
		src:   "x = a < b == c and d + 1\n",
		lines: []int{1, 1, 0, -3, 2, 99},
		want:  []tokBrief{{1, "relational", "x = a < b == c and d + 1", "x = a >= b == c and d + 1"}},
	},
	{
		name:  "priority: relational before negate-condition",
		src:   "if a == b:\n    go()\n",
		lines: []int{1, 2},
		want: []tokBrief{
			{1, "relational", "if a == b:", "if a != b:"},
			{2, "remove-statement", "go()", "pass"},
		},
	},
	{
		name:  "for targets are not membership tests",
		src:   "for x in xs:\n    total = [y for y in x]\n",
		lines: []int{1, 2},
		want:  nil,
	},
}

func TestPythonMutants(t *testing.T) {
	var parsed []string
	for _, tc := range pyMutantCases {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := pythonMutator{}.Mutants("pkg/a.py", []byte(tc.src), tc.lines, nil)
			if err != nil {
				t.Fatalf("Mutants: %v", err)
			}
			if diff := cmp.Diff(tc.want, tokBriefs(ms)); diff != "" {
				t.Errorf("mutants (-want +got):\n%s", diff)
			}
			for _, m := range ms {
				if m.File != "pkg/a.py" {
					t.Errorf("File = %q", m.File)
				}
				parsed = append(parsed, string(m.Src))
			}
			parsed = append(parsed, tc.src)
		})
	}
	pyParseAll(t, parsed)
}

// pyParseAll fails the test for each source python3's ast.parse rejects.
// python3 must be installed: a mutant that does not compile would make every
// test fail for the wrong reason, so this check is not optional.
func pyParseAll(t *testing.T, srcs []string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed to check that mutants compile: %v", err)
	}
	in, err := json.Marshal(srcs)
	if err != nil {
		t.Fatal(err)
	}
	const script = `import ast, json, sys
for i, s in enumerate(json.load(sys.stdin)):
    try:
        ast.parse(s)
    except SyntaxError as e:
        print("%d: %s\n%s\n---" % (i, e, s))
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	if len(out) > 0 {
		t.Errorf("sources python3 does not parse:\n%s", out)
	}
}

func TestPythonMutantsExtraArid(t *testing.T) {
	src := []byte("def f(n):\n    metrics.incr(n + 1)\n    total = n + 1\n")
	arid := &Arid{Extra: []*regexp.Regexp{regexp.MustCompile(`^metrics\.`)}}
	ms, err := pythonMutator{}.Mutants("a.py", src, []int{2, 3}, arid)
	if err != nil {
		t.Fatal(err)
	}
	want := []tokBrief{{3, "arithmetic", "total = n + 1", "total = n - 1"}}
	if diff := cmp.Diff(want, tokBriefs(ms)); diff != "" {
		t.Errorf("mutants (-want +got):\n%s", diff)
	}
	ms, _ = pythonMutator{}.Mutants("a.py", src, []int{2, 3}, nil)
	if len(ms) != 2 {
		t.Errorf("without the extra pattern: %d mutants, want 2", len(ms))
	}
}

func TestPythonMutantsDeterministic(t *testing.T) {
	var src strings.Builder
	var lines []int
	for _, tc := range pyMutantCases {
		src.WriteString(tc.src)
	}
	for i := 1; i <= strings.Count(src.String(), "\n"); i++ {
		lines = append(lines, i)
	}
	first, err := pythonMutator{}.Mutants("a.py", []byte(src.String()), lines, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		again, _ := pythonMutator{}.Mutants("a.py", []byte(src.String()), lines, nil)
		if diff := cmp.Diff(first, again); diff != "" {
			t.Fatalf("mutants differ between runs:\n%s", diff)
		}
	}
}

func TestPythonMutantsBrokenSource(t *testing.T) {
	for _, src := range []string{"x = 'unterminated\n", "f(a,\n", "if x:\n    y\n\tz\n"} {
		if ms, err := (pythonMutator{}).Mutants("a.py", []byte(src), []int{1}, nil); err == nil || ms != nil {
			t.Errorf("Mutants(%q) = %v, %v; want no mutants and an error", src, ms, err)
		}
	}
}

func TestPythonFor(t *testing.T) {
	if m := For("src/app/models.py"); m == nil || m.Name() != "python" {
		t.Errorf("For(models.py) = %v", m)
	}
	if m := For("a.pyc"); m != nil && m.Name() == "python" {
		t.Error("For(a.pyc) is python")
	}
}

// checkFuzzMutants checks what holds for any source and any lines: at most
// one mutant per asked line, in line order, each changing the source and
// saying which line it changed.
func checkFuzzMutants(t *testing.T, src string, lines []int, ms []Mutant, err error) {
	t.Helper()
	if err != nil && ms != nil {
		t.Fatalf("mutants with an error: %v", err)
	}
	asked := lineSet(lines)
	last := 0
	for _, m := range ms {
		if !asked[m.Line] {
			t.Fatalf("mutant on line %d, not asked", m.Line)
		}
		if m.Line <= last {
			t.Fatalf("mutant on line %d after line %d", m.Line, last)
		}
		last = m.Line
		if string(m.Src) == src {
			t.Fatalf("mutant on line %d does not change the source", m.Line)
		}
		if m.Mutated != lineText(m.Src, m.Line) || m.Original != lineText([]byte(src), m.Line) {
			t.Fatalf("mutant on line %d: original %q mutated %q", m.Line, m.Original, m.Mutated)
		}
	}
}

// fuzzLines asks every stride-th line of src (1 for all), and one past the
// end.
func fuzzLines(src string, stride uint8) []int {
	k := int(stride%4) + 1
	n := strings.Count(src, "\n") + 1
	var lines []int
	for l := k; l <= n+1; l += k {
		lines = append(lines, l)
	}
	return lines
}

func FuzzPythonMutants(f *testing.F) {
	for _, tc := range pyMutantCases {
		f.Add(tc.src, uint8(0))
	}
	f.Add("if a<b:x=1\nelif a:\n  pass\nwhile(x):y-=1\n", uint8(1))
	f.Add("x = f'{a+b}' + 'c' \\\n  + d\nreturn -x; g()\n", uint8(0))
	f.Fuzz(func(t *testing.T, src string, stride uint8) {
		lines := fuzzLines(src, stride)
		ms, err := pythonMutator{}.Mutants("a.py", []byte(src), lines, nil)
		checkFuzzMutants(t, src, lines, ms, err)
		for _, m := range ms {
			if _, ok := pylex.Tokenize(string(m.Src)); !ok {
				t.Fatalf("mutant on line %d does not tokenize:\n%s", m.Line, m.Src)
			}
		}
	})
}

// TestAridNotBesideLogic: a log call written on one line with logic does
// not make the logic arid, in Python and JavaScript.
func TestAridNotBesideLogic(t *testing.T) {
	py := []byte("def f(a, b):\n    print(a); c = a > b\n    print(a)\n    return c\n")
	ms, err := For("f.py").Mutants("f.py", py, []int{2, 3}, nil)
	if err != nil || len(ms) != 1 || ms[0].Line != 2 || ms[0].Mutated != "print(a); c = a <= b" {
		t.Errorf("python: %+v, %v; want only line 2's comparison mutated", ms, err)
	}
	js := []byte("export function f(a, b) {\n  console.log(a); return a > b\n  console.log(b)\n}\n")
	ms, err = For("f.js").Mutants("f.js", js, []int{2, 3}, nil)
	if err != nil || len(ms) != 1 || ms[0].Line != 2 || ms[0].Mutated != "console.log(a); return a <= b" {
		t.Errorf("javascript: %+v, %v; want only line 2's comparison mutated", ms, err)
	}
}
