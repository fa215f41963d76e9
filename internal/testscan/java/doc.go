// Package java extracts test cases and the other facts testscan.File describes from
// Java source files: JUnit 3, 4 and 5, TestNG and Theories tests with their ids
// ("Class.method", "Outer.Inner.method"), skip annotations and assumptions, JUnit,
// AssertJ, Hamcrest and Mockito assertions (in tests, and in helper and lifecycle
// methods), the methods tests and helpers call, suppression annotations and
// comments, empty catch blocks, public API, literal comparisons,
// placeholders (TODO/FIXME/XXX comments, throw new X("not implemented"), a
// production method whose body returns a constant), and the production
// methods with their exits (throw, return null, an empty Optional or
// collection) and literal branches (`if (x == 5) return "five";`, `case
// 42 -> true;`).
//
// The extractor runs a hand-written tokenizer that understands string literals,
// text blocks, char literals and comments, then a tolerant declaration parser over
// the tokens: a fragment (a hunk with blank gaps) or a syntax error still yields
// every declaration that could be recovered, with File.Partial set.
package java
