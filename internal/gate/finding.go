package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// FindingType is one of the seven regression types of the seeds, or one of the
// two ralph-gate adds (test_regression, unverified).
type FindingType string

// The seven regression types of the seeds, then ralph-gate's own two: a gate
// never passes a regression, and evidence it could not read is never read as
// "no regression".
const (
	TestDeletion       FindingType = "test_deletion"
	TestSkipping       FindingType = "test_skipping"
	AssertionWeakening FindingType = "assertion_weakening"
	ErrorSuppression   FindingType = "error_suppression"
	ValidationBypass   FindingType = "validation_bypass"
	FeatureRemoval     FindingType = "feature_removal"
	CoverageRegression FindingType = "coverage_regression"
	// TestRegression: a test that passed at BASE fails at HEAD, or a package
	// that built and ran at BASE fails to build, crashes, times out or exits
	// early at HEAD.
	TestRegression FindingType = "test_regression"
	// Unverified: evidence that could not be read (a changed test, test-config
	// or CI file that is binary, oversize, a symlink, a submodule or
	// unparseable) or a check that could not run (the tamper check).
	Unverified FindingType = "unverified"
)

// FindingTypes lists the types in the contract's order.
var FindingTypes = []FindingType{
	TestDeletion, TestSkipping, AssertionWeakening, ErrorSuppression,
	ValidationBypass, FeatureRemoval, CoverageRegression, TestRegression,
	Unverified,
}

// AIWGType maps a finding type to the closest value of the AIWG
// regression_type enum (persistence-extension.yaml), which has only the seeds'
// seven. A test that passed and now fails, or a package that no longer builds,
// is a tested behaviour gone: feature_removal. Evidence that could not be read
// is the checking machinery not doing its job: validation_bypass. Loop state
// keeps ralph-gate's own type in the event's details.
func AIWGType(t FindingType) FindingType {
	switch t {
	case TestRegression:
		return FeatureRemoval
	case Unverified:
		return ValidationBypass
	}
	return t
}

// DefaultSeverity is the severity a finding of type t gets unless its evidence or
// the configuration says otherwise.
func DefaultSeverity(t FindingType) Severity {
	switch t {
	case TestDeletion, ValidationBypass:
		return SeverityCritical
	case TestSkipping, AssertionWeakening, CoverageRegression, TestRegression, Unverified:
		return SeverityHigh
	case ErrorSuppression, FeatureRemoval:
		return SeverityMedium
	}
	return SeverityMedium
}

// Description is a one-line explanation of a finding type, used for SARIF rules
// and help text.
func Description(t FindingType) string {
	switch t {
	case TestDeletion:
		return "A test present at base is gone at head and was not renamed or moved."
	case TestSkipping:
		return "A test that ran at base is skipped, disabled, todo-ed, xfail-ed, filtered out or guarded by an early return."
	case AssertionWeakening:
		return "A test's assertions were removed, commented out, weakened, inverted, or its expected values rewritten."
	case ErrorSuppression:
		return "A checker was silenced or an error swallowed (@ts-ignore, nolint, noqa, empty catch, _ = err)."
	case ValidationBypass:
		return "The checking machinery was loosened: CI test steps, test commands, coverage thresholds, strictness, or code special-casing a test's input."
	case FeatureRemoval:
		return "Public API or a command was removed without replacement."
	case CoverageRegression:
		return "Coverage dropped beyond the configured tolerance."
	case TestRegression:
		return "A test that passed at base fails at head, or a package that built and ran at base fails to build, crashes, times out or exits early."
	case Unverified:
		return "Evidence could not be read (a changed test, test-config or CI file that is binary, oversize, a symlink, a submodule or unparseable) or a check could not run."
	}
	return string(t)
}

// Evidence says how strongly a finding is established.
type Evidence string

// Kinds of evidence, weakest first.
const (
	// EvidenceStatic: read from the diff.
	EvidenceStatic Evidence = "static"
	// EvidenceMeasured: shown by running tests or reading their reports.
	EvidenceMeasured Evidence = "measured"
	// EvidenceHistory: shown by the iteration history of a loop.
	EvidenceHistory Evidence = "history"
)

// Finding is one reported regression. Its JSON form is the contract's.
type Finding struct {
	ID       string      `json:"id"`
	Type     FindingType `json:"type"`
	Severity Severity    `json:"severity"`
	File     string      `json:"file,omitempty"`
	Line     int         `json:"line,omitempty"`
	Test     string      `json:"test,omitempty"`
	Symbol   string      `json:"symbol,omitempty"`
	Commit   string      `json:"commit,omitempty"`
	Net      bool        `json:"net"`
	Message  string      `json:"message"`
	// BaselineValue and CurrentValue carry the two sides of a measured change
	// (coverage, test counts); nil when the finding has none.
	BaselineValue *float64 `json:"baseline_value,omitempty"`
	CurrentValue  *float64 `json:"current_value,omitempty"`
	// Evidence and Rule extend the contract: how the finding is established, and
	// which detector raised it (stable, e.g. "matcher-weakened").
	Evidence Evidence `json:"evidence"`
	Rule     string   `json:"rule"`
	// Suppressed carries the reason of a sanctioned exception from the config;
	// a suppressed finding is reported and never blocks.
	Suppressed string `json:"suppressed,omitempty"`
	// Waived is set when a waiver of the configuration suppresses the
	// finding (Suppressed then says who waived it, until when and why).
	Waived bool `json:"waived,omitempty"`
	// Tests names every test of a grouped finding (a deleted test file's
	// tests); Test stays empty then.
	Tests []string `json:"tests,omitempty"`
}

// MakeID derives a stable id from the parts that identify a finding: its type, rule,
// file, test or symbol and a detail key, never from line numbers or commits, so the
// same finding keeps its id across runs and rebases.
func MakeID(t FindingType, rule, file, subject, key string) string {
	h := sha256.New()
	for _, p := range []string{string(t), rule, file, subject, key} {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("RG-%s-%s", strings.ToUpper(shortType(t)), hex.EncodeToString(h.Sum(nil))[:12])
}

// NewFinding builds a finding of rule r, of the rule's type, at severity
// sev, in file at line; test or else symbol is its subject, which with key
// makes its id (MakeID).
func NewFinding(r Rule, sev Severity, file string, line int, test, symbol, key, msg string) Finding {
	subject := test
	if subject == "" {
		subject = symbol
	}
	return Finding{
		ID:       MakeID(r.Type, r.ID, file, subject, key),
		Type:     r.Type,
		Severity: sev,
		File:     file,
		Line:     line,
		Test:     test,
		Symbol:   symbol,
		Message:  msg,
		Rule:     r.ID,
	}
}

func shortType(t FindingType) string {
	switch t {
	case TestDeletion:
		return "TD"
	case TestSkipping:
		return "TS"
	case AssertionWeakening:
		return "AW"
	case ErrorSuppression:
		return "ES"
	case ValidationBypass:
		return "VB"
	case FeatureRemoval:
		return "FR"
	case CoverageRegression:
		return "CR"
	case TestRegression:
		return "TR"
	case Unverified:
		return "UV"
	}
	return "XX"
}

// Float returns a pointer to v, for BaselineValue and CurrentValue.
func Float(v float64) *float64 { return &v }
