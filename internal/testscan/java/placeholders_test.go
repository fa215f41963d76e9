package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestExtractPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []testscan.Marker
	}{
		{
			name: "comments",
			src: "// TODO(ana): handle   overflow\n" +
				"class Calc { int x = 1; /* FIXME: zero */\n" +
				"  /** XXX: javadoc that starts with the word */\n" +
				"  // see TODO list\n" +
				"  // TODOS are tracked elsewhere\n" +
				"  // XXXL\n" +
				"  // todo: lowercase is prose\n" +
				"  // NOSONAR TODO not at the start\n" +
				"}\n",
			want: []testscan.Marker{
				{Line: 1, Kind: "todo-comment", Text: "TODO(ana): handle overflow"},
				{Line: 2, Kind: "todo-comment", Text: "FIXME: zero"},
				{Line: 3, Kind: "todo-comment", Text: "XXX: javadoc that starts with the word"},
			},
		},
		{
			name: "strings are not comments",
			src: "class S {\n" +
				"  String a = \"// TODO: a string\";\n" +
				"  String b = \"\"\"\n    /* FIXME in a text block */\n    \"\"\";\n" +
				"  char c = '/';\n" +
				"}\n",
		},
		{
			name: "throws",
			src: "class Calc {\n" +
				"  int mul(int a, int b) {\n    throw new UnsupportedOperationException(\"Not implemented yet\");\n  }\n" +
				"  int div(int a, int b) { throw new java.lang.UnsupportedOperationException( \"TODO\" ); }\n" +
				"  int sub(int a, int b) { throw new RuntimeException(\"not implemented: \" + a); }\n" +
				"  int add(int a, int b) {\n    throw new IllegalStateException(\"\"\"\n        stub\"\"\");\n  }\n" +
				"}\n",
			want: []testscan.Marker{
				{Line: 3, Kind: "not-implemented", Text: `throw new UnsupportedOperationException("Not implemented yet")`},
				{Line: 5, Kind: "not-implemented", Text: `throw new java.lang.UnsupportedOperationException("TODO")`},
				{Line: 6, Kind: "not-implemented", Text: `throw new RuntimeException("not implemented: "+a)`},
				{Line: 8, Kind: "not-implemented", Text: `throw new IllegalStateException(""" stub""")`},
			},
		},
		{
			name: "legitimate throws",
			src: "final class Frozen<E> implements Iterator<E> {\n" +
				"  public void remove() { throw new UnsupportedOperationException(\"remove\"); }\n" +
				"  public void clear() { throw new UnsupportedOperationException(); }\n" +
				"  E get(int i) { if (i < 0) throw new IndexOutOfBoundsException(\"index out of range\"); return null; }\n" +
				"  void h(RuntimeException e) { throw e; }\n" +
				"  void k(String msg) { throw new IllegalArgumentException(msg); }\n" +
				"  void m() { throw new IllegalStateException(\"TODOS overflowed\"); }\n" +
				"}\n",
		},
		{
			name: "order: comments, then statements",
			src:  "class CalcTest {\n  @Test void mul() {\n    throw new AssertionError(\"TODO\"); // FIXME: write it\n  }\n}\n// XXX: flaky\n",
			want: []testscan.Marker{
				{Line: 3, Kind: "todo-comment", Text: "FIXME: write it"},
				{Line: 6, Kind: "todo-comment", Text: "XXX: flaky"},
				{Line: 3, Kind: "not-implemented", Text: `throw new AssertionError("TODO")`},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := New().Extract("src/main/java/Calc.java", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, f.Placeholders); diff != "" {
				t.Errorf("placeholders (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtractConstantBodies: a production method whose whole body is
// `return` and a constant (a literal, null, an empty value) is a
// "constant-body" placeholder named as FuncNames names it; a getter, a
// named constant, a body that computes, an abstract or interface method,
// a deprecated method, a lambda's or anonymous class's return and a test
// file's methods are not.
func TestExtractConstantBodies(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []testscan.Marker
		funcs           []string
	}{
		{
			name: "constants",
			src: "public class Cart<T extends Item> {\n" +
				"    public int total() {\n        return 0;\n    }\n" +
				"    @Override public String label() { return \"none\"; }\n" +
				"    boolean ready() { return true; }\n" +
				"    Object find(String id) { return null; }\n" +
				"    double neg() { return -1.5; }\n" +
				"    char sep() { return ','; }\n" +
				"    List<T> items() { return Collections.emptyList(); }\n" +
				"    Optional<T> first() { return Optional.empty(); }\n" +
				"    String doc() { return \"\"\"\n        none\n        \"\"\"; }\n" +
				"    static class Line {\n        Map<String, T> attrs() { return new HashMap<>(); }\n    }\n" +
				"    String blank() { return EMPTY; }\n" +
				"}\n",
			want: []testscan.Marker{
				{Line: 3, Kind: "constant-body", Text: "Cart.total", Value: "return 0"},
				{Line: 5, Kind: "constant-body", Text: "Cart.label", Value: `return "none"`},
				{Line: 6, Kind: "constant-body", Text: "Cart.ready", Value: "return true"},
				{Line: 7, Kind: "constant-body", Text: "Cart.find", Value: "return null"},
				{Line: 8, Kind: "constant-body", Text: "Cart.neg", Value: "return -1.5"},
				{Line: 9, Kind: "constant-body", Text: "Cart.sep", Value: "return ','"},
				{Line: 10, Kind: "constant-body", Text: "Cart.items", Value: "return Collections.emptyList()"},
				{Line: 11, Kind: "constant-body", Text: "Cart.first", Value: "return Optional.empty()"},
				{Line: 12, Kind: "constant-body", Text: "Cart.doc", Value: `return """ none """`},
				{Line: 16, Kind: "constant-body", Text: "Cart.Line.attrs", Value: "return new HashMap<>()"},
				{Line: 18, Kind: "constant-body", Text: "Cart.blank", Value: "return EMPTY"},
			},
			funcs: []string{"Cart.total", "Cart.label", "Cart.ready", "Cart.find", "Cart.neg", "Cart.sep", "Cart.items", "Cart.first", "Cart.doc", "Cart.Line.attrs", "Cart.blank"},
		},
		{
			name: "getters and computed bodies",
			src: "abstract class Cart implements Sized {\n" +
				"    private final int size;\n" +
				"    Cart(int size) { this.size = size; }\n" +
				"    int size() { return size; }\n" +
				"    int size2() { return this.size; }\n" +
				"    int max() { return MAX; }\n" +
				"    int limit() { return Limits.MAX_SIZE; }\n" +
				"    int twice() { log(); return 0; }\n" +
				"    int sum(int a) { return a + 1; }\n" +
				"    String name() { return \"cart\" + size; }\n" +
				"    Runnable task() { return () -> { return; }; }\n" +
				"    Supplier<String> s() { return new Supplier<String>() { public String get() { return null; } }; }\n" +
				"    void none() { }\n" +
				"    abstract int weight();\n" +
				"    interface Shape { int sides(); default int corners() { return sides(); } }\n" +
				"}\n",
			funcs: []string{"Cart.Cart", "Cart.size", "Cart.size2", "Cart.max", "Cart.limit", "Cart.twice", "Cart.sum", "Cart.name", "Cart.task", "Cart.s", "Cart.none", "Cart.Shape.corners"},
		},
		{
			name: "deprecated",
			src: "class Cart {\n" +
				"    @Deprecated\n    int total() { return 0; }\n" +
				"    /**\n     * Sums.\n     *\n     * @deprecated use {@link #sum}\n     */\n    public int old() { return 0; }\n" +
				"    @java.lang.Deprecated(since = \"2\") int older() { return 0; }\n" +
				"}\n",
			funcs: []string{"Cart.total", "Cart.old", "Cart.older"},
		},
		{
			name: "test file",
			path: "src/test/java/CartTest.java",
			src:  "class CartTest {\n    int total() { return 0; }\n}\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path
			if path == "" {
				path = "src/main/java/Cart.java"
			}
			f, err := New().Extract(path, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []testscan.Marker
			for _, m := range f.Placeholders {
				if m.Kind == "constant-body" {
					got = append(got, m)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("constant bodies (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.funcs, f.FuncNames); diff != "" {
				t.Errorf("FuncNames (-want +got):\n%s", diff)
			}
		})
	}
}
