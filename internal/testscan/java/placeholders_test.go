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
