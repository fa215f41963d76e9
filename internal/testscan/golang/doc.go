// Package golang extracts test cases and related facts from Go source files for
// ralph-gate's analyzer.
//
// A file is read with go/parser. Test cases are TestXxx(t *testing.T), FuzzXxx(f
// *testing.F) and ExampleXxx functions that carry an "// Output:" comment (the only
// examples `go test` runs), plus Test methods of testify (and gocheck) suites.
// Subtests started with t.Run get the ids `go test` reports: a literal name is
// rewritten the way the testing package does (spaces become underscores, duplicates
// get "#01" suffixes), and a loop over a literal table (a slice of structs, a map
// keyed by name, a slice of strings, declared in the function or as a package-level
// variable of the same file) is expanded to one subtest per row. A subtest whose
// name is only known at run time gets the Dynamic id "Parent/*".
//
// Suite methods cannot be given the id `go test` reports, because the runner test
// that calls suite.Run may live in another file; they are named "Suite.TestXxx"
// ("Suite.TestXxx/sub" for their s.Run subtests) so that the id is stable wherever
// the runner lives.
//
// In a test file, the other functions that can assert (those taking a
// *testing.T, *testing.B, *testing.F, testing.TB, *check.C, *qt.C,
// *assert.Assertions, *require.Assertions or *is.I, and the methods of a suite
// type: one with Test methods in the file or embedding a Suite) are read with
// the same walk as tests, and their assertions are File.HelperAssertions.
//
// Files that do not parse (a fragment rebuilt from diff hunks, with unchanged
// regions blanked out, or a syntax error) are cut at every top-level declaration
// keyword in column one; each piece has its brackets balanced and is parsed on its
// own, so every complete or truncated function whose header survives still yields
// its tests, and loose statements still yield their markers. Such results are
// marked Partial.
//
// Speed: go/parser dominates, and the rest is kept to one pass over each thing.
// Each test function is walked once, for its tests, assertions, subtests and
// code markers together (markers walks only the other declarations, skipping
// expressions that cannot hold what it looks for). Fingerprints, literals and
// operand texts need the file's tokens: a scanner made for this (lexer.go, with
// go/scanner as the reference and the fallback) reads them, one top-level
// declaration at a time and only where asked, into memory reused from one
// extraction to the next, and writes the hash input of every token once, so
// that a fingerprint hashes a slice of it.
package golang
