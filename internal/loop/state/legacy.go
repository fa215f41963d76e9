package state

import "path/filepath"

// Legacy is .aiwg/ralph/current-loop.json, the single-loop state of
// earlier Ralph tools, in either of the spellings they used.
type Legacy struct {
	LoopID           string `json:"loop_id"`
	LoopIDCamel      string `json:"loopId"`
	Task             string `json:"task"`
	Completion       string `json:"completion_criteria"`
	CompletionCamel  string `json:"completionCriteria"`
	CompletionPromis string `json:"completionPromise"`
	MaxIter          *int   `json:"max_iterations"`
	MaxIterCamel     *int   `json:"maxIterations"`
	Iteration        *int   `json:"iteration"`
	IterationCamel   *int   `json:"currentIteration"`
	Status           string `json:"status"`
}

// LegacyPath is the legacy single-loop state file.
func (s *Store) LegacyPath() string { return filepath.Join(s.Dir, LegacyName) }
