// Package analyze turns a change (the old and new versions of each changed file)
// into findings of the six statically visible regression types, and combines the
// findings of each commit of a range with those of its net change.
//
// It reads no repository itself: callers hand it file contents, from git objects
// or from a patch, so the same rules hold for `analyze BASE HEAD` and for
// `analyze --patch`.
//
// Checks are followed behind calls (calls.go): the extractors record the
// functions each test and helper calls, and a check that a test gave up
// counts as moved when the helpers its new calls reach run it more often
// than those its old calls reached. The helpers come from the change's files
// and, through Change.Siblings, from the untouched test files of the test's
// directory, read only when their text declares a name looked for. A test
// that stops calling a helper whose checks it ran is reported
// (helper-call-removed), as a helper that loses checks is
// (helper-assertion-removed).
package analyze
