package state

import (
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// StateVersion is the AIWG loop-state version ralph-gate writes.
const StateVersion = "2.0.0"

// Status is a loop's status, as loop-state.yaml enumerates it.
type Status string

// Statuses of loop-state.yaml.
const (
	StatusRunning    Status = "running"
	StatusPaused     Status = "paused"
	StatusCompleting Status = "completing"
	StatusCompleted  Status = "completed"
	StatusFailed     Status = "failed"
	StatusAborted    Status = "aborted"
	StatusCrashed    Status = "crashed"
)

// transitions are loop-state.yaml's state_transitions.allowed.
var transitions = map[Status][]Status{
	StatusRunning:    {StatusPaused, StatusCompleting, StatusAborted, StatusCrashed, StatusFailed},
	StatusPaused:     {StatusRunning, StatusAborted},
	StatusCompleting: {StatusCompleted, StatusFailed, StatusCrashed},
}

// Allowed lists the statuses a loop may move to from s.
func Allowed(s Status) []Status { return transitions[s] }

// CanMove reports whether loop-state.yaml allows from -> to.
func CanMove(from, to Status) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// Terminal reports whether s ends a loop.
func (s Status) Terminal() bool {
	return s == StatusCompleted || s == StatusFailed || s == StatusAborted || s == StatusCrashed
}

// State is state.json: the fields of loop-state.yaml, the agent-persistence
// fields of persistence-extension.yaml, and ralph-gate's own under RalphGate.
// Field names and enums are AIWG's, so AIWG tools can read the file.
type State struct {
	Version            string         `json:"version"`
	LoopID             string         `json:"loop_id"`
	Status             Status         `json:"status"`
	Iteration          int            `json:"iteration"`
	Task               string         `json:"task"`
	CompletionCriteria string         `json:"completion_criteria"`
	StartedAt          time.Time      `json:"started_at"`
	LastUpdated        time.Time      `json:"last_updated"`
	CompletedAt        *time.Time     `json:"completed_at"`
	Owner              string         `json:"owner"`
	PID                *int           `json:"pid"`
	WorkingDirectory   string         `json:"working_directory"`
	Configuration      Configuration  `json:"configuration"`
	Progress           Progress       `json:"progress"`
	Metrics            LoopMetrics    `json:"metrics"`
	LastCheckpoint     *string        `json:"last_checkpoint"`
	ErrorContext       *ErrorContext  `json:"error_context"`
	BaselineMetrics    Baseline       `json:"baseline_metrics"`
	IterationHistory   []Iteration    `json:"iteration_history"`
	BestIteration      *Best          `json:"best_iteration"`
	RegressionEvents   []Regression   `json:"regression_events"`
	ReinforcementLevel string         `json:"reinforcement_level"`
	ReinforcementHist  []LevelChange  `json:"reinforcement_history"`
	RecoveryAttempts   int            `json:"recovery_attempts"`
	RecoveryHistory    []Recovery     `json:"recovery_history"`
	DetectionEnabled   bool           `json:"detection_enabled"`
	DetectedPatterns   []Pattern      `json:"detected_patterns"`
	PersistenceMetrics PersistMetrics `json:"persistence_metrics"`
	RalphGate          Extra          `json:"ralph_gate"`
}

// Configuration is loop-state.yaml's LoopConfiguration.
type Configuration struct {
	MaxIterations      int    `json:"max_iterations"`
	TimeoutMinutes     *int   `json:"timeout_minutes"`
	Interactive        bool   `json:"interactive"`
	AutoTest           bool   `json:"auto_test"`
	CheckpointInterval int    `json:"checkpoint_interval"`
	ExecutionMode      string `json:"execution_mode"`
}

// Progress is loop-state.yaml's ProgressTracking.
type Progress struct {
	CompletionChecks    []CompletionCheck `json:"completion_checks"`
	LastCompletionCheck *CompletionCheck  `json:"last_completion_check"`
	EstimatedCompletion *string           `json:"estimated_completion"`
}

// CompletionCheck is one run of the completion command.
type CompletionCheck struct {
	Iteration int       `json:"iteration"`
	Timestamp time.Time `json:"timestamp"`
	Passed    bool      `json:"passed"`
	// Output is the tail of the command's combined output.
	Output string `json:"output"`
	// ExitCode and DurationMS extend the schema.
	ExitCode   int   `json:"exit_code"`
	DurationMS int64 `json:"duration_ms"`
}

// LoopMetrics is loop-state.yaml's LoopMetrics. Tokens and cost are the
// sums of what the agent reported to `ralph-gate run`; with nothing reported
// they are unknown and left out (the schema types them as numbers, and 0
// would claim the agent used nothing).
type LoopMetrics struct {
	TotalIterations       int      `json:"total_iterations"`
	SuccessfulIterations  int      `json:"successful_iterations"`
	FailedIterations      int      `json:"failed_iterations"`
	TotalTokens           *int     `json:"total_tokens,omitempty"`
	TotalCostUSD          *float64 `json:"total_cost_usd,omitempty"`
	TotalDurationSeconds  int      `json:"total_duration_seconds"`
	AverageIterationTimeS float64  `json:"average_iteration_time_seconds"`
}

// ErrorContext is loop-state.yaml's error_context.
type ErrorContext struct {
	ErrorMessage   string    `json:"error_message"`
	ErrorTimestamp time.Time `json:"error_timestamp"`
	// StackTrace holds the last lines of the agent's standard error.
	StackTrace        string `json:"stack_trace,omitempty"`
	RecoveryAttempted bool   `json:"recovery_attempted"`
	// Iteration, ExitCode and TimedOut extend the schema: the iteration the
	// agent failed in and how.
	Iteration int  `json:"iteration,omitempty"`
	ExitCode  int  `json:"exit_code,omitempty"`
	TimedOut  bool `json:"timed_out,omitempty"`
}

// Baseline is persistence-extension.yaml's baseline_metrics, measured at
// start. The schema requires test_count and coverage_percentage; when they
// were not measured they are written as 0 and custom_metrics says so.
type Baseline struct {
	CapturedAt         time.Time      `json:"captured_at"`
	TestCount          int            `json:"test_count"`
	CoveragePercentage float64        `json:"coverage_percentage"`
	TypescriptErrors   *int           `json:"typescript_errors"`
	LintErrors         *int           `json:"lint_errors"`
	LintWarnings       *int           `json:"lint_warnings"`
	FileCount          int            `json:"file_count"`
	LinesOfCode        int            `json:"lines_of_code"`
	CustomMetrics      map[string]any `json:"custom_metrics"`
}

// Iteration is one entry of iteration_history.
type Iteration struct {
	Iteration        int               `json:"iteration"`
	Timestamp        time.Time         `json:"timestamp"`
	QualityScore     float64           `json:"quality_score"`
	QualityDelta     float64           `json:"quality_delta"`
	QualityBreakdown Breakdown         `json:"quality_breakdown"`
	Artifacts        []Artifact        `json:"artifacts"`
	SnapshotPath     string            `json:"snapshot_path"`
	TestResults      *TestResults      `json:"test_results"`
	MetricsSnapshot  gate.Metrics      `json:"metrics_snapshot"`
	Regression       bool              `json:"regression_detected"`
	RecoveryAttempt  bool              `json:"recovery_attempted"`
	Commit           string            `json:"commit"`
	Tag              string            `json:"tag"`
	Void             bool              `json:"void"`
	Verified         bool              `json:"verified"`
	Decision         string            `json:"decision"`
	Reason           string            `json:"reason"`
	Findings         []gate.Finding    `json:"findings"`
	Notes            []string          `json:"notes,omitempty"`
	FailingTests     []string          `json:"failing_tests,omitempty"`
	Fingerprint      string            `json:"failure_fingerprint,omitempty"`
	DurationMS       int64             `json:"duration_ms"`
	Measured         map[string]string `json:"measured,omitempty"`
	// NoOp marks an iteration in which the agent changed nothing: recorded
	// on the last commit, it counts toward the iteration limit and the
	// stuck-loop rule.
	NoOp bool `json:"no_op,omitempty"`
	// TokensUsed and TokenCostUSD are iteration-analytics.yaml's, from what
	// the agent reported (left out: unknown).
	TokensUsed   *int     `json:"tokens_used,omitempty"`
	TokenCostUSD *float64 `json:"token_cost_usd,omitempty"`
	// Agent is how the agent run by `ralph-gate run` ended.
	Agent *AgentRun `json:"agent,omitempty"`
	// Witness is the fail-to-pass witness of the change since the baseline:
	// which of its new and edited tests fail on the baseline's code (nil:
	// not measured, or a no-op iteration).
	Witness *gate.Witness `json:"witness,omitempty"`
	// Mutation is the diff-based mutation of the change since the
	// baseline: its mutants and score (nil: not asked for, or a no-op
	// iteration).
	Mutation *gate.Mutation `json:"mutation,omitempty"`
	// GateMS is the gate's own time on the iteration: run's commit and
	// record's whole run (collectors and completion included).
	GateMS int64 `json:"gate_ms,omitempty"`
}

// Breakdown holds the quality dimensions, each 0 to 100.
type Breakdown struct {
	Validation   float64 `json:"validation"`
	Completeness float64 `json:"completeness"`
	Correctness  float64 `json:"correctness"`
	Readability  float64 `json:"readability"`
	Efficiency   float64 `json:"efficiency"`
}

// Artifact is a file the iteration created or modified.
type Artifact struct {
	Path      string `json:"path"`
	Hash      string `json:"hash"`
	SizeBytes int    `json:"size_bytes"`
	Change    string `json:"change"`
}

// TestResults are an iteration's measured test outcomes.
type TestResults struct {
	Total    int      `json:"total"`
	Passed   int      `json:"passed"`
	Failed   int      `json:"failed"`
	Skipped  int      `json:"skipped"`
	Coverage *float64 `json:"coverage,omitempty"`
}

// Best is best_iteration.
type Best struct {
	Iteration       int       `json:"iteration"`
	QualityScore    float64   `json:"quality_score"`
	SnapshotPath    string    `json:"snapshot_path"`
	UpdatedAt       time.Time `json:"updated_at"`
	SelectionReason string    `json:"selection_reason"`
	Tag             string    `json:"tag"`
}

// Regression is one regression_events entry.
type Regression struct {
	EventID           string         `json:"event_id"`
	Timestamp         time.Time      `json:"timestamp"`
	Iteration         int            `json:"iteration"`
	RegressionType    string         `json:"regression_type"`
	Severity          string         `json:"severity"`
	Details           RegressionDiff `json:"details"`
	RecoveryInvoked   bool           `json:"recovery_protocol_invoked"`
	RecoveryOutcome   *string        `json:"recovery_outcome"`
	HumanGateInvoked  bool           `json:"human_gate_invoked"`
	HumanDecision     *string        `json:"human_decision"`
	DecidedAt         *time.Time     `json:"decided_at,omitempty"`
	FindingIDs        []string       `json:"finding_ids"`
	RestoredIteration *int           `json:"restored_iteration,omitempty"`
	RestoreCommit     string         `json:"restore_commit,omitempty"`
}

// RegressionDiff is a regression's details.
type RegressionDiff struct {
	BaselineValue any            `json:"baseline_value,omitempty"`
	CurrentValue  any            `json:"current_value,omitempty"`
	Diff          map[string]any `json:"diff"`
	// RalphGateType is ralph-gate's own finding type, which regression_type
	// maps to the AIWG enum's closest value (test_regression, unverified).
	RalphGateType string `json:"ralph_gate_type,omitempty"`
}

// LevelChange is one reinforcement_history entry.
type LevelChange struct {
	Timestamp time.Time `json:"timestamp"`
	Iteration int       `json:"iteration"`
	FromLevel string    `json:"from_level"`
	ToLevel   string    `json:"to_level"`
	Reason    string    `json:"reason"`
}

// Recovery is one recovery_history entry: the PDARE protocol's steps.
type Recovery struct {
	RecoveryID    string    `json:"recovery_id"`
	Timestamp     time.Time `json:"timestamp"`
	Iteration     int       `json:"iteration"`
	Trigger       string    `json:"trigger"`
	ProtocolSteps Steps     `json:"protocol_steps"`
	Outcome       string    `json:"outcome"`
	// Attempt counts the recovery attempts of the loop, this one included.
	Attempt int `json:"attempt"`
	// RestoredIteration and RestoreCommit: a reject of this gate restored
	// that iteration's tree (0: the baseline) as that commit.
	RestoredIteration *int   `json:"restored_iteration,omitempty"`
	RestoreCommit     string `json:"restore_commit,omitempty"`
}

// Steps are the PDARE protocol's steps.
type Steps struct {
	Pause    *PauseStep    `json:"pause,omitempty"`
	Diagnose *DiagnoseStep `json:"diagnose,omitempty"`
	Adapt    *AdaptStep    `json:"adapt,omitempty"`
	Retry    *RetryStep    `json:"retry,omitempty"`
	Escalate *EscalateStep `json:"escalate"`
}

// PauseStep stops the loop's progress without destroying anything.
type PauseStep struct {
	ExecutedAt time.Time `json:"executed_at"`
	Actions    []string  `json:"actions"`
}

// DiagnoseStep names the root cause with a confidence.
type DiagnoseStep struct {
	ExecutedAt time.Time `json:"executed_at"`
	RootCause  string    `json:"root_cause"`
	Confidence float64   `json:"confidence"`
	Evidence   []string  `json:"evidence,omitempty"`
}

// AdaptStep is the strategy the next iteration follows.
type AdaptStep struct {
	ExecutedAt  time.Time `json:"executed_at"`
	Strategy    string    `json:"strategy"`
	ChangesMade []string  `json:"changes_made"`
}

// RetryStep is the next iteration, once it is recorded.
type RetryStep struct {
	ExecutedAt     time.Time `json:"executed_at"`
	RetryIteration int       `json:"retry_iteration"`
	Outcome        string    `json:"outcome,omitempty"`
}

// EscalateStep is the human gate.
type EscalateStep struct {
	ExecutedAt    time.Time `json:"executed_at"`
	Reason        string    `json:"reason"`
	HumanDecision string    `json:"human_decision,omitempty"`
}

// Pattern is one detected_patterns entry.
type Pattern struct {
	PatternID     string    `json:"pattern_id"`
	PatternName   string    `json:"pattern_name"`
	Iteration     int       `json:"iteration"`
	Timestamp     time.Time `json:"timestamp"`
	Severity      string    `json:"severity"`
	FalsePositive bool      `json:"false_positive"`
	// FindingID is the finding the pattern was read from; left out for
	// LP-020 (Iteration Limit Exceeded), which the loop's end records.
	FindingID string `json:"finding_id,omitempty"`
}

// PersistMetrics is persistence_metrics: record's own latency.
type PersistMetrics struct {
	// DetectionLatencyP95MS and P99 are over the loop's detections: from the
	// moment a commit lands (run's commit, or HEAD's committer time for
	// record) to record's verdict on it, and from a tool call reaching the
	// PreToolUse hook to its denial.
	DetectionLatencyP95MS int `json:"detection_latency_p95_ms"`
	DetectionLatencyP99MS int `json:"detection_latency_p99_ms"`
	// IntegrationOverheadPct is the gate's time (commit, measure, analyze,
	// completion, record) as a percentage of the agent's time, over the
	// iterations run drove; left out when no agent time is known.
	IntegrationOverheadPct *float64 `json:"integration_overhead_percentage,omitempty"`
	// FalsePositiveRate is false / (true + false), from the findings a
	// human marked (status --mark-fp); left out before any detection.
	FalsePositiveRate  *float64 `json:"false_positive_rate,omitempty"`
	TruePositiveCount  int      `json:"true_positive_count"`
	FalsePositiveCount int      `json:"false_positive_count"`
}

// FalsePositive is a finding a human marked as a false alarm.
type FalsePositive struct {
	FindingID string    `json:"finding_id"`
	Type      string    `json:"type"`
	Iteration int       `json:"iteration"`
	By        string    `json:"by"`
	MarkedAt  time.Time `json:"marked_at"`
}

// Extra is ralph-gate's own part of state.json.
type Extra struct {
	// JournalSeq is the last journal entry this state includes.
	JournalSeq int `json:"journal_seq"`
	// BaselineCommit is the commit measured at start (iteration 0).
	BaselineCommit string `json:"baseline_commit"`
	BaselineTag    string `json:"baseline_tag"`
	// LastCommit is the commit the next iteration is compared with: the last
	// recorded iteration, or the commit a reject restored.
	LastCommit string `json:"last_commit"`
	// Branch is the branch the loop started on ("" when detached).
	Branch string `json:"branch"`
	// BaselineFailing are the tests failing at start; completeness counts
	// how many of them pass.
	BaselineFailing []string `json:"baseline_failing,omitempty"`
	// BaselineCompletion is the completion command's result at start.
	BaselineCompletion *CompletionCheck `json:"baseline_completion,omitempty"`
	// BaselineComplexity, BaselineTests and BaselineCoverage keep what the
	// schema's baseline_metrics cannot say (nil: not measured).
	BaselineComplexity *int         `json:"baseline_complexity,omitempty"`
	BaselineTests      *TestResults `json:"baseline_tests,omitempty"`
	BaselineCoverage   *float64     `json:"baseline_coverage,omitempty"`
	// BaselineScore is the baseline's quality score, which iteration 1's
	// quality_delta is measured from.
	BaselineScore     float64   `json:"baseline_score"`
	BaselineBreakdown Breakdown `json:"baseline_breakdown"`
	// Settings are the thresholds and weights in force, resolved at start.
	Settings Settings `json:"settings"`
	// NoFeedback hides findings from the prompt.
	NoFeedback bool `json:"no_feedback"`
	// Approved lists finding ids a human approved: they never block again.
	Approved []string `json:"approved,omitempty"`
	// StopReason says why the loop stopped.
	StopReason string `json:"stop_reason,omitempty"`
	// Seal is the HMAC of this document written with an empty seal, under
	// the user's key (seal.go): state.json edited outside ralph-gate does not
	// verify.
	Seal string `json:"seal,omitempty"`
	// WindowStart is the last iteration before the loop was resumed after a
	// stop: the improvement and plateau criteria judge only the iterations
	// after it, so a resumed loop gets a fresh window.
	WindowStart int `json:"window_start,omitempty"`
	// RecordLatencyMS keeps the last record overheads (without collectors).
	RecordLatencyMS []int `json:"record_latency_ms,omitempty"`
	// DetectionLatencyMS keeps the last detection latencies of records
	// (commit landed -> verdict) for persistence_metrics.
	DetectionLatencyMS []int `json:"detection_latency_ms,omitempty"`
	// FalsePositives are the findings a human marked as false alarms.
	FalsePositives []FalsePositive `json:"false_positives,omitempty"`
	// MigratedFrom names the legacy file this state was made from.
	MigratedFrom string `json:"migrated_from,omitempty"`
	// Run is what `ralph-gate run` keeps between its runs of this loop.
	Run *RunSettings `json:"run,omitempty"`
}

// RunSettings are `ralph-gate run`'s choices for a loop, kept so that a run
// that resumes the loop goes on with them (its own flags override).
type RunSettings struct {
	Agent            string   `json:"agent"`
	IterationTimeout string   `json:"iteration_timeout,omitempty"`
	BudgetUSD        *float64 `json:"budget_usd,omitempty"`
	BudgetTokens     *int     `json:"budget_tokens,omitempty"`
	OnBlock          string   `json:"on_block,omitempty"`
}

// Last returns the last recorded iteration, or nil.
func (s *State) Last() *Iteration {
	if len(s.IterationHistory) == 0 {
		return nil
	}
	return &s.IterationHistory[len(s.IterationHistory)-1]
}

// Find returns iteration n, or nil.
func (s *State) Find(n int) *Iteration {
	for i := range s.IterationHistory {
		if s.IterationHistory[i].Iteration == n {
			return &s.IterationHistory[i]
		}
	}
	return nil
}

// PendingGates returns the escalated recoveries waiting for a human decision
// (at most one in practice: record refuses to go on while one waits).
func (s *State) PendingGates() []*Recovery {
	var out []*Recovery
	for i := range s.RecoveryHistory {
		r := &s.RecoveryHistory[i]
		if r.ProtocolSteps.Escalate != nil && r.ProtocolSteps.Escalate.HumanDecision == "" {
			out = append(out, r)
		}
	}
	return out
}
