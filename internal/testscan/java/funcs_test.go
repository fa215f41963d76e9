package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestFuncs: a production file's methods and constructors, named by their
// classes (overloads share a name), with their own exits (a lambda's, an
// anonymous class's and a local class's are theirs) and the branches that
// answer a literal with a literal; strings, text blocks and comments that
// read like code are not code, and a test file has none.
func TestFuncs(t *testing.T) {
	src := funcsSrc
	got, err := New().Extract("src/main/java/p/Parser.java", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []testscan.Func{
		{Name: "Parser.Parser", Line: 8},
		{Name: "Parser.parse", Line: 11, Returns: "Optional<String>", Exits: []testscan.Exit{
			{Line: 13, Kind: testscan.ExitError, Text: `throw new IllegalArgumentException("throw; return null;")`},
			{Line: 31, Kind: testscan.ExitOther, Text: `return Optional.of("x")`},
			{Line: 32, Kind: testscan.ExitEmpty, Text: "return Optional.empty()"},
			{Line: 33, Kind: testscan.ExitEmpty, Text: "return null"},
			{Line: 35, Kind: testscan.ExitEmpty, Text: "return Optional.empty()"},
			{Line: 36, Kind: testscan.ExitOther, Text: "return Optional.ofNullable(s)"},
		}},
		{Name: "Parser.parse", Line: 39, Returns: "String", Branches: []testscan.Branch{
			{Line: 40, Subject: "n", Literal: "5", Answer: `"five"`},
			{Line: 41, Subject: "name", Literal: `"six"`, Answer: "6"},
			{Line: 42, Subject: "this.mode", Literal: "'x'", Answer: `"dot"`},
			{Line: 45, Subject: "n", Literal: "1, 2", Answer: `"small"`, Case: true},
			{Line: 46, Subject: "n", Literal: "-3", Answer: `"neg"`, Case: true},
		}},
		{Name: "Parser.Inner.names", Line: 52, Returns: "List<String>", Exits: []testscan.Exit{
			{Line: 53, Kind: testscan.ExitEmpty, Text: "return new ArrayList<>()"},
			{Line: 54, Kind: testscan.ExitEmpty, Text: "return Collections.<String>emptyList()"},
			{Line: 55, Kind: testscan.ExitEmpty, Text: "return StringUtils.EMPTY_STRING_ARRAY"},
			{Line: 56, Kind: testscan.ExitEmpty, Text: "return new String[0]"},
			{Line: 57, Kind: testscan.ExitError, Text: "throw e"},
		}},
		{Name: "Parser.Inner.zero", Line: 59, Returns: "int"},
	}
	if diff := cmp.Diff(want, got.Funcs); diff != "" {
		t.Errorf("funcs (-want +got):\n%s", diff)
	}
	if f, _ := New().Extract("src/test/java/p/ParserTest.java", []byte(src)); len(f.Funcs) != 0 {
		t.Errorf("a test file's funcs: %+v", f.Funcs)
	}
}

// funcsSrc is TestFuncs's production file, a seed of FuzzExtract.
const funcsSrc = `package p;

import java.util.*;

@Deprecated
public class Parser<T extends Comparable<T>> {
    /** Never throw here; return null instead. */
    public Parser() { }

    @Override
    public Optional<String> parse(String s) throws IOException {
        if (s == null) {
            throw new IllegalArgumentException("throw; return null;");
        }
        String doc = """
            return null;
            throw new X();
            """;
        // return null;
        Runnable r = () -> { return; };
        Comparator<String> c = new Comparator<String>() {
            public int compare(String a, String b) { return 0; }
        };
        class Local { Object get() { return null; } }
        list.forEach(x -> {
            if (x == 7) return;
        });
        switch (mode) {
            case 3:
            case 4:
                return Optional.of("x");
            case "a" -> { return Optional.empty(); }
            case MAX: return null;
        }
        if (s.length() == 0) return Optional.empty();
        return Optional.ofNullable(s);
    }

    String parse(int n) {
        if (n == 5) return "five";
        if ("six".equals(name)) { kind = 6; }
        if (this.mode.equals('x')) return "dot";
        if (n == MAX) return "max";
        return switch (n) {
            case 1, 2 -> "small";
            case -3 -> { yield "neg"; }
            default -> throw new UnsupportedOperationException("not implemented yet");
        };
    }

    static class Inner {
        List<String> names() {
            if (ok) return new ArrayList<>();
            if (bad) return Collections.<String>emptyList();
            if (worse) return StringUtils.EMPTY_STRING_ARRAY;
            if (worst) return new String[0];
            throw e;
        }
        int zero() { return 0; }
    }

    abstract void hook();
}
`

// TestFuncsSwitchSubject: a switch on a cast or a parenthesized variable
// switches on the variable, so dropping the cast keeps its branches
// (jackson-core's _decodeEscaped: `switch ((int) c)` became `switch (c)`).
func TestFuncsSwitchSubject(t *testing.T) {
	for _, sw := range []string{"switch (c)", "switch ((int) c)", "switch ((c))", "switch ((int) (c))"} {
		src := "class P {\n    char unescape(char c) {\n        " + sw + " {\n        case 'b':\n            return '\\b';\n        }\n        return c;\n    }\n}\n"
		f, err := New().Extract("src/main/java/P.java", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		want := []testscan.Branch{{Line: 4, Subject: "c", Literal: "'b'", Answer: `'\b'`, Case: true}}
		if len(f.Funcs) != 1 {
			t.Fatalf("%s: funcs %+v", sw, f.Funcs)
		}
		if diff := cmp.Diff(want, f.Funcs[0].Branches); diff != "" {
			t.Errorf("%s: branches (-want +got):\n%s", sw, diff)
		}
	}
}

// TestFuncsReturns: the result type a method declares, through type
// parameters, annotations, arrays and qualified names; a constructor has
// none.
func TestFuncsReturns(t *testing.T) {
	src := "class R<T> {\n" +
		"    R() { }\n" +
		"    public static <K, V extends Comparable<V>> Map<K, List<V>> group() { return null; }\n" +
		"    @Nullable protected final java.util.Optional<T> first() { return null; }\n" +
		"    synchronized String[] names() { return null; }\n" +
		"    void run() { }\n" +
		"}\n"
	f, err := New().Extract("src/main/java/R.java", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fn := range f.Funcs {
		got = append(got, fn.Name+" "+fn.Returns)
	}
	want := []string{"R.R ", "R.group Map<K,List<V>>", "R.first java.util.Optional<T>", "R.names String[]", "R.run void"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("returns (-want +got):\n%s", diff)
	}
}
