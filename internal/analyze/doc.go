// Package analyze turns a change (the old and new versions of each changed file)
// into findings of the six statically visible regression types, and combines the
// findings of each commit of a range with those of its net change.
//
// It reads no repository itself: callers hand it file contents, from git objects
// or from a patch, so the same rules hold for `analyze BASE HEAD` and for
// `analyze --patch`.
//
// The CI rules (what workflows, Makefiles, package scripts and shell
// scripts run, and whether a check's failure still fails the build; a
// checker's strictness; coverage thresholds; the gate's own configuration)
// live in the sub-package ci: its doc says which file holds what. Analyze
// hands each changed file over as a ci.File (ci.go). The configuration
// rules that need the tests the extractors read stay here: which files a
// runner's configuration collects (runnerconfig.go, jsconfig.go), and
// pytest marker filters that only new tests carry (pyconfig.go).
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
//
// A test is the same test by what it does, not by its name (identity.go):
// tests are paired in passes of decreasing evidence (the same id in the same
// file, unless its body went verbatim to a test the change created; the
// same id elsewhere; the same body; the same name spelled another way, with
// its checks and calls kept; a reworked body; a table's row that holds its
// inputs and makes its checks with the row's values, where a value the row
// gives otherwise is a rewritten expectation; a body recast around a library
// call that only it and one new test make, checked the same ways). A test
// folded into a row that no longer makes its checks lost them (rows.go).
// Literals are values, not spellings: "a" + "b" is "ab". A test left
// unpaired whose cases run on under new ids (subtests, a rewritten
// parameter table with as many known cases) or whose every check lives on,
// at least as strong, in
// tests the change created or added checks to (a split, a merge, a move
// under another name) is reported as medium (test-carried), not deleted.
// Skipped tests carry nothing, and a check moved out of a test that stays
// must keep its value, not only a generic subject.
package analyze
