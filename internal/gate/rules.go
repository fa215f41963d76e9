package gate

// The catalogue of rules: every finding's Rule field is the ID of one of
// them (docs/rules.md lists them, `ralph-gate rules` prints them). A rule
// is raised with its Type and, unless its detector's evidence says
// otherwise, its Severity.
var (
	// The test_deletion rules.

	// RuleTestDeleted is test-deleted.
	RuleTestDeleted = Rule{ID: "test-deleted", Type: TestDeletion, Severity: SeverityCritical, Pattern: "LP-001", Doc: "A test present at base is gone at head and was not renamed or moved."}
	// RuleTestFileDeleted is test-file-deleted.
	RuleTestFileDeleted = Rule{ID: "test-file-deleted", Type: TestDeletion, Severity: SeverityCritical, Pattern: "LP-001", Doc: "A test file was deleted with its tests, none of them renamed or moved."}
	// RuleTestDeletedWithCode is test-deleted-with-code.
	RuleTestDeletedWithCode = Rule{ID: "test-deleted-with-code", Type: TestDeletion, Severity: SeverityMedium, Pattern: "LP-001", Doc: "A test was deleted together with the production code it tested: a removal to confirm."}
	// RuleTestFileDeletedWithCode is test-file-deleted-with-code.
	RuleTestFileDeletedWithCode = Rule{ID: "test-file-deleted-with-code", Type: TestDeletion, Severity: SeverityMedium, Pattern: "LP-001", Doc: "A test file was deleted together with the production code its tests were about."}
	// RulePlaceholderTestDeleted is placeholder-test-deleted.
	RulePlaceholderTestDeleted = Rule{ID: "placeholder-test-deleted", Type: TestDeletion, Severity: SeverityMedium, Pattern: "LP-001", Doc: "A test whose body only held checks that always pass was deleted."}
	// RuleSuiteRunnerDeleted is suite-runner-deleted.
	RuleSuiteRunnerDeleted = Rule{ID: "suite-runner-deleted", Type: TestDeletion, Severity: SeverityMedium, Pattern: "LP-001", Doc: "A test that asserted nothing itself was deleted while the suite tests it ran were kept."}
	// RuleTestReplaced is test-replaced.
	RuleTestReplaced = Rule{ID: "test-replaced", Type: TestDeletion, Severity: SeverityMedium, Pattern: "LP-001", Doc: "A test was deleted from a file that gained new tests with at least as many checks: confirm they cover what it checked."}
	// RuleTestCarried is test-carried.
	RuleTestCarried = Rule{ID: "test-carried", Type: TestDeletion, Severity: SeverityMedium, Pattern: "LP-001", Doc: "A test was deleted while tests the change created or gave new checks may carry what it checked: confirm they do."}
	// RuleTestDuplicateDeleted is test-duplicate-deleted.
	RuleTestDuplicateDeleted = Rule{ID: "test-duplicate-deleted", Type: TestDeletion, Severity: SeverityLow, Pattern: "LP-001", Doc: "A test that duplicated a kept test was deleted."}
	// RuleMeasuredDeletion is measured-deletion.
	RuleMeasuredDeletion = Rule{ID: "measured-deletion", Type: TestDeletion, Severity: SeverityCritical, Pattern: "LP-001", Doc: "A test that ran at base no longer runs at head, by the test runs' own reports."}

	// The test_skipping rules.

	// RuleSkipAdded is skip-added.
	RuleSkipAdded = Rule{ID: "skip-added", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-003", Doc: "A test that ran at base is now skipped, disabled, todo-ed, xfail-ed or guarded by an early return."}
	// RuleOnlyAdded is only-added.
	RuleOnlyAdded = Rule{ID: "only-added", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-003", Doc: "A focus marker (.only, fit, fdescribe) was added, so the other tests of the file no longer run."}
	// RuleBuildConstraint is build-constraint.
	RuleBuildConstraint = Rule{ID: "build-constraint", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-003", Doc: "A test file now builds only under a //go:build constraint no default go test run sets."}
	// RuleRetriesRaised is retries-raised.
	RuleRetriesRaised = Rule{ID: "retries-raised", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-003", Doc: "Test retries were added or raised, so a flaky or failing test can pass on a later try."}
	// RuleRunnerFilter is runner-filter.
	RuleRunnerFilter = Rule{ID: "runner-filter", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-002", Doc: "The test command or runner configuration now filters which tests run."}
	// RuleRunnerNarrowed is runner-narrowed.
	RuleRunnerNarrowed = Rule{ID: "runner-narrowed", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-003", Doc: "The test runner's configuration now selects fewer tests or excludes more."}
	// RuleMeasuredSkip is measured-skip.
	RuleMeasuredSkip = Rule{ID: "measured-skip", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-003", Doc: "A test that ran at base is skipped at head, by the test runs' own reports."}
	// RuleHookDeselect is hook-deselect.
	RuleHookDeselect = Rule{ID: "hook-deselect", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-003", Doc: "A pytest hook now deselects collected tests or ignores test files."}
	// RuleHookSkip is hook-skip.
	RuleHookSkip = Rule{ID: "hook-skip", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-003", Doc: "A set-up hook, set-up method or fixture (pytest, vitest, JUnit) now skips, or marks as expected to fail, the tests it reaches."}
	// RuleCollectIgnore is collect-ignore.
	RuleCollectIgnore = Rule{ID: "collect-ignore", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-003", Doc: "conftest's collect_ignore now names test files, which pytest no longer collects."}
	// RuleTestDisabled is test-disabled.
	RuleTestDisabled = Rule{ID: "test-disabled", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-003", Doc: "`__test__ = False` added to a test module or class, which pytest no longer collects."}
	// RuleNamedTestExcluded is named-test-excluded.
	RuleNamedTestExcluded = Rule{ID: "named-test-excluded", Type: TestSkipping, Severity: SeverityHigh, Pattern: "LP-021", Doc: "A test the loop's task or completion command names ran at the baseline and no longer runs."}

	// The assertion_weakening rules.

	// RuleAssertionRemoved is assertion-removed.
	RuleAssertionRemoved = Rule{ID: "assertion-removed", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-013", Doc: "A test's assertions were removed."}
	// RuleAssertionCommentedOut is assertion-commented-out.
	RuleAssertionCommentedOut = Rule{ID: "assertion-commented-out", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-013", Doc: "A test's assertions were commented out."}
	// RuleAssertionTrivialized is assertion-trivialized.
	RuleAssertionTrivialized = Rule{ID: "assertion-trivialized", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-012", Doc: "An assertion was replaced by one that always passes."}
	// RuleAssertionReplacedWeaker is assertion-replaced-weaker.
	RuleAssertionReplacedWeaker = Rule{ID: "assertion-replaced-weaker", Type: AssertionWeakening, Severity: SeverityMedium, Pattern: "LP-012", Doc: "An assertion was replaced by a weaker one (toEqual -> toBeDefined, Equal -> NotNil)."}
	// RuleAssertionInverted is assertion-inverted.
	RuleAssertionInverted = Rule{ID: "assertion-inverted", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-012", Doc: "An assertion was inverted: it now checks the opposite."}
	// RuleAssertionWeakened is assertion-weakened.
	RuleAssertionWeakened = Rule{ID: "assertion-weakened", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-013", Doc: "An assertion now checks less than it did."}
	// RuleAssertionLibReplaced is assertion-lib-replaced.
	RuleAssertionLibReplaced = Rule{ID: "assertion-lib-replaced", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-013", Doc: "An assertion library was replaced by a local copy, a fork or a link."}
	// RuleExpectedRewritten is expected-rewritten.
	RuleExpectedRewritten = Rule{ID: "expected-rewritten", Type: AssertionWeakening, Severity: SeverityMedium, Pattern: "LP-024", Doc: "A test's expected values were rewritten."}
	// RuleExpectedFromCode is expected-from-code.
	RuleExpectedFromCode = Rule{ID: "expected-from-code", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-023", Doc: "A test's expected value is now computed by the code under test."}
	// RuleToleranceWidened is tolerance-widened.
	RuleToleranceWidened = Rule{ID: "tolerance-widened", Type: AssertionWeakening, Severity: SeverityMedium, Pattern: "LP-024", Doc: "A check's tolerance was widened (high where both tolerances are numbers)."}
	// RuleTestDataRewritten is test-data-rewritten.
	RuleTestDataRewritten = Rule{ID: "test-data-rewritten", Type: AssertionWeakening, Severity: SeverityMedium, Pattern: "LP-024", Doc: "A test's input data was rewritten so the cases it checked are gone."}
	// RuleBodyEmptied is body-emptied.
	RuleBodyEmptied = Rule{ID: "body-emptied", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-013", Doc: "A test's body was emptied."}
	// RuleCheckOfStub is check-of-stub.
	RuleCheckOfStub = Rule{ID: "check-of-stub", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-014", Doc: "A check now tests a stub or mock instead of the code under test."}
	// RuleCheckGuarded is check-guarded.
	RuleCheckGuarded = Rule{ID: "check-guarded", Type: AssertionWeakening, Severity: SeverityMedium, Pattern: "LP-013", Doc: "A check now sits behind a new condition or in a try block (high where the condition reads the environment or never holds, a loop over nothing included, or the handler drops the failure), or runs where its failure cannot fail the test: off the test's thread, or inside a construct that expects or drops any failure (high)."}
	// RuleHelperAssertionRemoved is helper-assertion-removed.
	RuleHelperAssertionRemoved = Rule{ID: "helper-assertion-removed", Type: AssertionWeakening, Severity: SeverityMedium, Pattern: "LP-013", Doc: "Checks were taken out of a test helper (high where it no longer checks anything that can fail)."}
	// RuleHelperCheckReworded is helper-check-reworded.
	RuleHelperCheckReworded = Rule{ID: "helper-check-reworded", Type: AssertionWeakening, Severity: SeverityMedium, Pattern: "LP-013", Doc: "Checks a test gave up are reached through its helpers only in other words: confirm the helpers pin every value."}
	// RuleHelperCallRemoved is helper-call-removed.
	RuleHelperCallRemoved = Rule{ID: "helper-call-removed", Type: AssertionWeakening, Severity: SeverityMedium, Pattern: "LP-013", Doc: "A test calls its checking helpers less and runs fewer checks (high where it checks nothing new in their place)."}
	// RuleMockedToExpected is mocked-to-expected.
	RuleMockedToExpected = Rule{ID: "mocked-to-expected", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-014", Doc: "A mock now returns exactly what a kept check expects."}
	// RuleMockOfSubject is mock-of-subject.
	RuleMockOfSubject = Rule{ID: "mock-of-subject", Type: AssertionWeakening, Severity: SeverityMedium, Pattern: "LP-014", Doc: "A test now mocks the code it checks."}
	// RuleNoopMatcher is noop-matcher.
	RuleNoopMatcher = Rule{ID: "noop-matcher", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-013", Doc: "A custom matcher that always passes was added (an expect.extend member whose every verdict is pass: true, a shadowing assert macro)."}
	// RuleHookOutcome is hook-outcome.
	RuleHookOutcome = Rule{ID: "hook-outcome", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-013", Doc: "A pytest hook now rewrites test outcomes, or claims to run a test it never calls."}
	// RuleTamperCheck is tamper-check.
	RuleTamperCheck = Rule{ID: "tamper-check", Type: AssertionWeakening, Severity: SeverityHigh, Pattern: "LP-024", Doc: "Base's version of an edited test fails against head's code while head's version passes (a test_deletion where head no longer has it)."}
	// RuleHistoryTestEditedToPass is history-test-edited-to-pass.
	RuleHistoryTestEditedToPass = Rule{ID: "history-test-edited-to-pass", Type: AssertionWeakening, Severity: SeverityCritical, Pattern: "LP-013", Doc: "In a loop, a failing test passes after only the test itself was edited."}

	// The error_suppression rules.

	// RuleSuppression is suppression-<kind>.
	RuleSuppression = Rule{ID: "suppression-", Type: ErrorSuppression, Severity: SeverityMedium, Pattern: "LP-016", Family: true, Doc: "A checker was silenced or an error swallowed; the id ends in the marker's kind (suppression-nolint, suppression-ts-ignore, suppression-empty-catch, ...)."}
	// RuleErrorToNull is error-to-null. DESIGN.md's error_suppression
	// covers "swallowed errors", and an error path that now returns nil,
	// None, null or an empty value swallows the error it reported (the Go
	// spelling, `if err != nil { return nil }`, is already the
	// error_suppression rule suppression-swallowed-error).
	// validation_bypass is about the checking machinery (test steps,
	// thresholds, the gate's configuration), and feature_removal about API
	// or feature code deleted: the function and its path are still there,
	// only their failure is hidden.
	RuleErrorToNull = Rule{ID: "error-to-null", Type: ErrorSuppression, Severity: SeverityMedium, Pattern: "LP-018", Doc: "An error path now returns nil, None, null or an empty value instead of the error."}

	// The validation_bypass rules.

	// RuleOrTrue is or-true.
	RuleOrTrue = Rule{ID: "or-true", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "`|| true` added to a command that runs checks."}
	// RuleMakeIgnoreErrors is make-ignore-errors.
	RuleMakeIgnoreErrors = Rule{ID: "make-ignore-errors", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A Makefile recipe line that runs checks now ignores its failure (leading '-')."}
	// RuleContinueOnError is continue-on-error.
	RuleContinueOnError = Rule{ID: "continue-on-error", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A CI step that runs checks may now fail without failing the build (continue-on-error)."}
	// RuleStepDisabled is step-disabled.
	RuleStepDisabled = Rule{ID: "step-disabled", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A CI step or job that runs checks was switched off with `if: false`."}
	// RuleSetPlusE is set-plus-e.
	RuleSetPlusE = Rule{ID: "set-plus-e", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "`set +e` added: failing commands after it no longer fail the script."}
	// RuleTestsListedNotRun is tests-listed-not-run.
	RuleTestsListedNotRun = Rule{ID: "tests-listed-not-run", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "The test command now lists or builds the tests without running them."}
	// RulePassWithNoTests is pass-with-no-tests.
	RulePassWithNoTests = Rule{ID: "pass-with-no-tests", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "The test run now passes when it finds no tests."}
	// RuleTestsSkipped is tests-skipped.
	RuleTestsSkipped = Rule{ID: "tests-skipped", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A build now skips the tests (-DskipTests, a disabled test task)."}
	// RuleFailureAllowed is failure-allowed.
	RuleFailureAllowed = Rule{ID: "failure-allowed", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "Checks may now fail without failing the build (allow_failure, --exit-zero, ...)."}
	// RuleLintRuleDisabled is lint-rule-disabled.
	RuleLintRuleDisabled = Rule{ID: "lint-rule-disabled", Type: ValidationBypass, Severity: SeverityMedium, Pattern: "LP-006", Doc: "A lint rule was disabled or excluded in the linter's configuration."}
	// RuleThresholdLowered is threshold-lowered.
	RuleThresholdLowered = Rule{ID: "threshold-lowered", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A coverage threshold was lowered."}
	// RuleStrictnessLowered is strictness-lowered.
	RuleStrictnessLowered = Rule{ID: "strictness-lowered", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "Type-checker strictness was lowered (tsconfig strict, mypy settings)."}
	// RuleGateConfigChanged is gate-config-changed.
	RuleGateConfigChanged = Rule{ID: "gate-config-changed", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "ralph-gate's own configuration was changed by the change it gates."}
	// RuleTestCommandRemoved is test-command-removed.
	RuleTestCommandRemoved = Rule{ID: "test-command-removed", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A CI file no longer runs any tests: its test commands were removed or replaced, or the file was deleted."}
	// RuleTestCommandRemovedWithCode is test-command-removed-with-code.
	RuleTestCommandRemovedWithCode = Rule{ID: "test-command-removed-with-code", Type: ValidationBypass, Severity: SeverityMedium, Pattern: "LP-006", Doc: "A CI file that ran tests was deleted together with the whole directory it tested, production code included: a removal to confirm."}
	// RuleScriptCheckDropped is script-check-dropped.
	RuleScriptCheckDropped = Rule{ID: "script-check-dropped", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A package script that ran checks no longer fails when a check fails."}
	// RuleWorkflowUnloaded is workflow-unloaded.
	RuleWorkflowUnloaded = Rule{ID: "workflow-unloaded", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A workflow that ran checks was deleted or moved where CI no longer loads it."}
	// RuleWorkflowUnreadable is workflow-unreadable.
	RuleWorkflowUnreadable = Rule{ID: "workflow-unreadable", Type: ValidationBypass, Severity: SeverityHigh, Pattern: "LP-006", Doc: "A workflow no longer parses as YAML, so GitHub Actions will not run it."}
	// RulePrTriggerRemoved is pr-trigger-removed.
	RulePrTriggerRemoved = Rule{ID: "pr-trigger-removed", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A workflow that ran checks no longer runs on pull requests."}
	// RuleExitStatusDropped is exit-status-dropped.
	RuleExitStatusDropped = Rule{ID: "exit-status-dropped", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A check in the CI program no longer fails the build when it fails."}
	// RuleStepOffOnPullRequests is step-off-on-pull-requests.
	RuleStepOffOnPullRequests = Rule{ID: "step-off-on-pull-requests", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "A check in the CI program no longer runs on pull requests, where the gate runs."}
	// RuleFileSuppression is file-suppression.
	RuleFileSuppression = Rule{ID: "file-suppression", Type: ValidationBypass, Severity: SeverityHigh, Pattern: "LP-006", Doc: "A checker was switched off for a whole file (@ts-nocheck, # mypy: ignore-errors, ...)."}
	// RuleBranchesOnTest is branches-on-test.
	RuleBranchesOnTest = Rule{ID: "branches-on-test", Type: ValidationBypass, Severity: SeverityMedium, Pattern: "LP-006", Doc: "Production code now behaves differently under its tests (high where it returns a canned answer)."}
	// RuleExcepthook is excepthook.
	RuleExcepthook = Rule{ID: "excepthook", Type: ValidationBypass, Severity: SeverityHigh, Pattern: "LP-006", Doc: "A sys.excepthook was installed, so errors that reach it no longer fail the run."}
	// RuleForcedExit is forced-exit.
	RuleForcedExit = Rule{ID: "forced-exit", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "The test run now exits successfully whatever the tests do (sys.exit(0), process.exit(0))."}
	// RuleSpecialCasedTest is special-cased-test.
	RuleSpecialCasedTest = Rule{ID: "special-cased-test", Type: ValidationBypass, Severity: SeverityHigh, Pattern: "LP-006", Doc: "Production code now returns a test's expected answer for that test's input."}
	// RuleSpecialCasedLiteral is special-cased-literal.
	RuleSpecialCasedLiteral = Rule{ID: "special-cased-literal", Type: ValidationBypass, Severity: SeverityMedium, Pattern: "LP-015", Doc: "Production code now compares against a literal a related test uses."}
	// RuleSpecialCasesAdded is special-cases-added.
	RuleSpecialCasesAdded = Rule{ID: "special-cases-added", Type: ValidationBypass, Severity: SeverityMedium, Pattern: "LP-017", Doc: "Many literal special cases were added to one function."}
	// RuleTypeErrorsIncreased is type-errors-increased.
	RuleTypeErrorsIncreased = Rule{ID: "type-errors-increased", Type: ValidationBypass, Severity: SeverityHigh, Pattern: "LP-006", Doc: "Type-check errors rose and the configuration makes this blocking."}
	// RuleLintErrorsIncreased is lint-errors-increased.
	RuleLintErrorsIncreased = Rule{ID: "lint-errors-increased", Type: ValidationBypass, Severity: SeverityHigh, Pattern: "LP-006", Doc: "Lint errors rose and the configuration makes this blocking."}
	// RuleWaiverExpired is waiver-expired.
	RuleWaiverExpired = Rule{ID: "waiver-expired", Type: ValidationBypass, Severity: SeverityMedium, Pattern: "LP-006", Doc: "A waiver of the configuration has expired: what it let through blocks again."}
	// RuleCIStepBypassed is ci-step-bypassed.
	RuleCIStepBypassed = Rule{ID: "ci-step-bypassed", Type: ValidationBypass, Severity: SeverityCritical, Pattern: "LP-006", Doc: "Base's version of a CI test step fails on head's code, and head's changed CI hides it."}
	// RuleCIStepNarrowed is ci-step-narrowed.
	RuleCIStepNarrowed = Rule{ID: "ci-step-narrowed", Type: ValidationBypass, Severity: SeverityHigh, Pattern: "LP-006", Doc: "Head's version of a CI test step runs tests that base's version ran no longer."}

	// The feature_removal rules.

	// RuleCommandRemoved is command-removed.
	RuleCommandRemoved = Rule{ID: "command-removed", Type: FeatureRemoval, Severity: SeverityMedium, Pattern: "LP-007", Doc: "A command was removed without replacement."}
	// RuleExportRemoved is export-removed.
	RuleExportRemoved = Rule{ID: "export-removed", Type: FeatureRemoval, Severity: SeverityMedium, Pattern: "LP-007", Doc: "An exported or public name was removed without replacement."}
	// RuleExportsRemoved is exports-removed.
	RuleExportsRemoved = Rule{ID: "exports-removed", Type: FeatureRemoval, Severity: SeverityMedium, Pattern: "LP-007", Doc: "Several exported or public names of a file were removed without replacement."}
	// RulePlaceholderAdded is placeholder-added.
	RulePlaceholderAdded = Rule{ID: "placeholder-added", Type: FeatureRemoval, Severity: SeverityMedium, Pattern: "LP-019", Doc: "Production code now stands in for an implementation (not implemented, a constant body)."}
	// RuleTodoProliferation is todo-proliferation.
	RuleTodoProliferation = Rule{ID: "todo-proliferation", Type: FeatureRemoval, Severity: SeverityLow, Pattern: "LP-019", Doc: "Many TODO, FIXME or XXX comments were added to production code."}

	// The coverage_regression rules.

	// RuleCoverageDropped is coverage-dropped.
	RuleCoverageDropped = Rule{ID: "coverage-dropped", Type: CoverageRegression, Severity: SeverityHigh, Pattern: "LP-010", PatternAtCritical: "LP-009", Doc: "Overall coverage dropped beyond the configured tolerance."}
	// RuleCoverageTestsMoved is coverage-tests-moved.
	RuleCoverageTestsMoved = Rule{ID: "coverage-tests-moved", Type: CoverageRegression, Severity: SeverityMedium, Pattern: "LP-010", PatternAtCritical: "LP-009", Doc: "Overall coverage dropped where tests were moved out of what is measured."}
	// RuleCoverageDroppedCoveredCodeRemoved is coverage-dropped-covered-code-removed.
	RuleCoverageDroppedCoveredCodeRemoved = Rule{ID: "coverage-dropped-covered-code-removed", Type: CoverageRegression, Severity: SeverityLow, Pattern: "LP-010", PatternAtCritical: "LP-009", Doc: "Overall coverage dropped because covered code was removed."}
	// RuleFileCoverageDropped is file-coverage-dropped.
	RuleFileCoverageDropped = Rule{ID: "file-coverage-dropped", Type: CoverageRegression, Severity: SeverityHigh, Pattern: "LP-010", PatternAtCritical: "LP-009", Doc: "A changed file's coverage dropped beyond the configured tolerance."}
	// RuleFileCoverageTestsMoved is file-coverage-tests-moved.
	RuleFileCoverageTestsMoved = Rule{ID: "file-coverage-tests-moved", Type: CoverageRegression, Severity: SeverityMedium, Pattern: "LP-010", PatternAtCritical: "LP-009", Doc: "A changed file's coverage dropped where its tests were moved."}
	// RuleBranchCoverageDropped is branch-coverage-dropped.
	RuleBranchCoverageDropped = Rule{ID: "branch-coverage-dropped", Type: CoverageRegression, Severity: SeverityMedium, Pattern: "LP-011", Doc: "Branch coverage dropped beyond the configured tolerance."}
	// RuleBranchCoverageDroppedCoveredCodeRemoved is branch-coverage-dropped-covered-code-removed.
	RuleBranchCoverageDroppedCoveredCodeRemoved = Rule{ID: "branch-coverage-dropped-covered-code-removed", Type: CoverageRegression, Severity: SeverityLow, Pattern: "LP-011", Doc: "Branch coverage dropped because covered code was removed."}
	// RuleChangedLinesCoverage is changed-lines-coverage.
	RuleChangedLinesCoverage = Rule{ID: "changed-lines-coverage", Type: CoverageRegression, Severity: SeverityHigh, Pattern: "LP-010", PatternAtCritical: "LP-009", Doc: "Tests cover less of the changed lines than coverage.changed_lines_min asks."}

	// The test_regression rules.

	// RuleTestNowFails is test-now-fails.
	RuleTestNowFails = Rule{ID: "test-now-fails", Type: TestRegression, Severity: SeverityHigh, Pattern: "RG-001", Doc: "A test that passed at base fails at head."}
	// RulePackageBroken is package-broken.
	RulePackageBroken = Rule{ID: "package-broken", Type: TestRegression, Severity: SeverityHigh, Pattern: "RG-001", Doc: "A package or test binary that built and ran at base fails to build, crashes, times out or exits early."}
	// RuleEvidenceIntegrity is evidence-integrity.
	RuleEvidenceIntegrity = Rule{ID: "evidence-integrity", Type: TestRegression, Severity: SeverityHigh, Pattern: "RG-001", Doc: "Head's test evidence does not add up (a JUnit suite declaring more tests than it lists) where base's did."}
	// RuleForgedTestResults is forged-test-results.
	RuleForgedTestResults = Rule{ID: "forged-test-results", Type: TestRegression, Severity: SeverityHigh, Pattern: "RG-001", Doc: "The code under test printed test events of its own, so its package's results cannot be trusted."}

	// The unverified rules.

	// RuleUnreadableFile is unreadable-file.
	RuleUnreadableFile = Rule{ID: "unreadable-file", Type: Unverified, Severity: SeverityHigh, Pattern: "RG-002", Doc: "A changed test, test-config or CI file is binary, oversize, a symlink or a submodule."}
	// RuleUnparsedTestFile is unparsed-test-file.
	RuleUnparsedTestFile = Rule{ID: "unparsed-test-file", Type: Unverified, Severity: SeverityHigh, Pattern: "RG-002", Doc: "A changed test file could not be parsed."}
	// RuleUnparsedManifest is unparsed-manifest.
	RuleUnparsedManifest = Rule{ID: "unparsed-manifest", Type: Unverified, Severity: SeverityHigh, Pattern: "RG-002", Doc: "A changed manifest (go.mod, package.json) could not be read."}
	// RuleUnparsedScript is unparsed-script.
	RuleUnparsedScript = Rule{ID: "unparsed-script", Type: Unverified, Severity: SeverityHigh, Pattern: "RG-002", Doc: "A changed CI script could not be parsed."}
	// RuleChangedLinesUnmeasured is changed-lines-unmeasured.
	RuleChangedLinesUnmeasured = Rule{ID: "changed-lines-unmeasured", Type: Unverified, Severity: SeverityHigh, Pattern: "RG-002", Doc: "coverage.changed_lines_min is set but head's coverage was not measured, so it could not be checked."}
	// RuleTamperCheckUnverified is tamper-check-unverified.
	RuleTamperCheckUnverified = Rule{ID: "tamper-check-unverified", Type: Unverified, Severity: SeverityMedium, Pattern: "RG-002", Doc: "An edited test could not be checked against head's code: the tamper check could not build or run it."}
	// RuleCIStepUnverified is ci-step-unverified.
	RuleCIStepUnverified = Rule{ID: "ci-step-unverified", Type: Unverified, Severity: SeverityHigh, Pattern: "RG-002", Doc: "Whether head's changed CI test step passes could not be measured."}
	// RuleGitFilesChanged is git-files-changed.
	RuleGitFilesChanged = Rule{ID: "git-files-changed", Type: Unverified, Severity: SeverityHigh, Pattern: "RG-002", Doc: "The code the gate ran changed the repository's git files, which make git run programs (filters, fsmonitor, hooks)."}
	// RuleRunnerFileWritten is runner-file-written.
	RuleRunnerFileWritten = Rule{ID: "runner-file-written", Type: Unverified, Severity: SeverityHigh, Pattern: "RG-002", Doc: "The code the gate ran wrote to a GitHub Actions runner file (step output, environment, PATH)."}
	// RuleUnwitnessedChange is unwitnessed-change.
	RuleUnwitnessedChange = Rule{ID: "unwitnessed-change", Type: Unverified, Severity: SeverityMedium, Pattern: "RG-003", Doc: "Production code changed and every new or edited test passes on base's code as well."}
	// RuleMutantSurvived is mutant-survived.
	RuleMutantSurvived = Rule{ID: "mutant-survived", Type: Unverified, Severity: SeverityMedium, Pattern: "RG-004", Doc: "A changed, covered line was mutated and every affected test still passes."}
	// RuleNamedFileUntouched is named-file-untouched.
	RuleNamedFileUntouched = Rule{ID: "named-file-untouched", Type: Unverified, Severity: SeverityLow, Pattern: "LP-021", Doc: "A file the loop's task names was left unchanged by a completed loop."}
)

// catalogue is the table Rules and RuleByID read, in the order of
// FindingTypes and, within a type, of the detectors.
var catalogue = []Rule{
	RuleTestDeleted,
	RuleTestFileDeleted,
	RuleTestDeletedWithCode,
	RuleTestFileDeletedWithCode,
	RulePlaceholderTestDeleted,
	RuleSuiteRunnerDeleted,
	RuleTestReplaced,
	RuleTestCarried,
	RuleTestDuplicateDeleted,
	RuleMeasuredDeletion,
	RuleSkipAdded,
	RuleOnlyAdded,
	RuleBuildConstraint,
	RuleRetriesRaised,
	RuleRunnerFilter,
	RuleRunnerNarrowed,
	RuleMeasuredSkip,
	RuleHookDeselect,
	RuleHookSkip,
	RuleCollectIgnore,
	RuleTestDisabled,
	RuleNamedTestExcluded,
	RuleAssertionRemoved,
	RuleAssertionCommentedOut,
	RuleAssertionTrivialized,
	RuleAssertionReplacedWeaker,
	RuleAssertionInverted,
	RuleAssertionWeakened,
	RuleAssertionLibReplaced,
	RuleExpectedRewritten,
	RuleExpectedFromCode,
	RuleToleranceWidened,
	RuleTestDataRewritten,
	RuleBodyEmptied,
	RuleCheckOfStub,
	RuleCheckGuarded,
	RuleHelperAssertionRemoved,
	RuleHelperCheckReworded,
	RuleHelperCallRemoved,
	RuleMockedToExpected,
	RuleMockOfSubject,
	RuleNoopMatcher,
	RuleHookOutcome,
	RuleTamperCheck,
	RuleHistoryTestEditedToPass,
	RuleSuppression,
	RuleErrorToNull,
	RuleOrTrue,
	RuleMakeIgnoreErrors,
	RuleContinueOnError,
	RuleStepDisabled,
	RuleSetPlusE,
	RuleTestsListedNotRun,
	RulePassWithNoTests,
	RuleTestsSkipped,
	RuleFailureAllowed,
	RuleLintRuleDisabled,
	RuleThresholdLowered,
	RuleStrictnessLowered,
	RuleGateConfigChanged,
	RuleTestCommandRemoved,
	RuleTestCommandRemovedWithCode,
	RuleScriptCheckDropped,
	RuleWorkflowUnloaded,
	RuleWorkflowUnreadable,
	RulePrTriggerRemoved,
	RuleExitStatusDropped,
	RuleStepOffOnPullRequests,
	RuleFileSuppression,
	RuleBranchesOnTest,
	RuleExcepthook,
	RuleForcedExit,
	RuleSpecialCasedTest,
	RuleSpecialCasedLiteral,
	RuleSpecialCasesAdded,
	RuleTypeErrorsIncreased,
	RuleLintErrorsIncreased,
	RuleWaiverExpired,
	RuleCIStepBypassed,
	RuleCIStepNarrowed,
	RuleCommandRemoved,
	RuleExportRemoved,
	RuleExportsRemoved,
	RulePlaceholderAdded,
	RuleTodoProliferation,
	RuleCoverageDropped,
	RuleCoverageTestsMoved,
	RuleCoverageDroppedCoveredCodeRemoved,
	RuleFileCoverageDropped,
	RuleFileCoverageTestsMoved,
	RuleBranchCoverageDropped,
	RuleBranchCoverageDroppedCoveredCodeRemoved,
	RuleChangedLinesCoverage,
	RuleTestNowFails,
	RulePackageBroken,
	RuleEvidenceIntegrity,
	RuleForgedTestResults,
	RuleUnreadableFile,
	RuleUnparsedTestFile,
	RuleUnparsedManifest,
	RuleUnparsedScript,
	RuleChangedLinesUnmeasured,
	RuleTamperCheckUnverified,
	RuleCIStepUnverified,
	RuleGitFilesChanged,
	RuleRunnerFileWritten,
	RuleUnwitnessedChange,
	RuleMutantSurvived,
	RuleNamedFileUntouched,
}
