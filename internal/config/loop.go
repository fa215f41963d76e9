package config

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Loop configures the loop commands (start, record, best): the stopping
// criteria of the seeds' iteration analytics, the quality weights, the best
// selection and the recovery protocol. Every field is optional; nil keeps the
// default (loop.Defaults), and aiwg.yml's agent_persistence and ralph sections
// fill what this section leaves out.
//
//	loop:
//	  max_iterations: 20
//	  quality_threshold: 70
//	  weights: {validation: 30, completeness: 25, correctness: 25, readability: 10, efficiency: 10}
//	  stop: {quality: 95, improvement: 5, plateau_window: 3, plateau_threshold: 3, max_regressions: 2}
type Loop struct {
	MaxIterations *int `yaml:"max_iterations"`
	MinIterations *int `yaml:"min_iterations"`
	// QualityThreshold is the least score an iteration needs to be selected
	// as best (default 70).
	QualityThreshold *float64 `yaml:"quality_threshold"`
	// RequireVerification selects only iterations whose completion command
	// passed.
	RequireVerification *bool `yaml:"require_verification"`
	// Weights of the quality dimensions; they are normalized to sum to 100.
	Weights map[string]float64 `yaml:"weights"`
	Stop    LoopStop           `yaml:"stop"`
	// Reinforcement is the starting reinforcement level (OFF, MINIMAL,
	// STANDARD, AGGRESSIVE, ADAPTIVE).
	Reinforcement string `yaml:"reinforcement"`
	// MaxRetries is how many recovery attempts precede the human gate
	// (default 3).
	MaxRetries *int `yaml:"max_retries"`
	// CompletionTimeout bounds one run of the completion command (default 10m).
	CompletionTimeout string `yaml:"completion_timeout"`
	// Collect is auto (run the collectors each iteration) or none.
	Collect string `yaml:"collect"`
}

// LoopStop holds the adaptive stopping criteria; a zero value disables the
// criterion it sets.
type LoopStop struct {
	// Quality stops the loop when an iteration's score reaches it (95).
	Quality *float64 `yaml:"quality"`
	// Improvement stops the loop when an iteration improves on the best earlier
	// non-void iteration by less than this many points (5).
	Improvement *float64 `yaml:"improvement"`
	// PlateauWindow and PlateauThreshold stop the loop when the mean
	// improvement over the last PlateauWindow iterations is below
	// PlateauThreshold points (3 and 3).
	PlateauWindow    *int     `yaml:"plateau_window"`
	PlateauThreshold *float64 `yaml:"plateau_threshold"`
	// MaxRegressions stops the loop when more iterations than this regressed (2).
	MaxRegressions *int `yaml:"max_regressions"`
}

// QualityDimensions are the quality score's dimensions, in the seeds' order.
var QualityDimensions = []string{"validation", "completeness", "correctness", "readability", "efficiency"}

// ReinforcementLevels are the prompt reinforcement levels of the seeds.
var ReinforcementLevels = []string{"OFF", "MINIMAL", "STANDARD", "AGGRESSIVE", "ADAPTIVE"}

func (l *Loop) validate() error {
	for name, p := range map[string]*int{"max_iterations": l.MaxIterations, "min_iterations": l.MinIterations,
		"stop.plateau_window": l.Stop.PlateauWindow, "stop.max_regressions": l.Stop.MaxRegressions, "max_retries": l.MaxRetries} {
		if p != nil && *p < 0 {
			return fmt.Errorf("%s: must not be negative (got %d)", name, *p)
		}
	}
	if l.MaxIterations != nil && *l.MaxIterations < 1 {
		return fmt.Errorf("max_iterations: must be at least 1 (got %d)", *l.MaxIterations)
	}
	for name, p := range map[string]*float64{"quality_threshold": l.QualityThreshold, "stop.quality": l.Stop.Quality,
		"stop.improvement": l.Stop.Improvement, "stop.plateau_threshold": l.Stop.PlateauThreshold} {
		if p != nil && (*p < 0 || *p > 100) {
			return fmt.Errorf("%s: want 0 to 100 points (got %g)", name, *p)
		}
	}
	names := make([]string, 0, len(l.Weights))
	for k := range l.Weights {
		names = append(names, k)
	}
	sort.Strings(names)
	sum := 0.0
	for _, k := range names {
		if !contains(QualityDimensions, k) {
			return fmt.Errorf("weights: unknown dimension %q (want %s)", k, strings.Join(QualityDimensions, ", "))
		}
		if l.Weights[k] < 0 {
			return fmt.Errorf("weights.%s: must not be negative", k)
		}
		sum += l.Weights[k]
	}
	if len(l.Weights) > 0 && sum == 0 {
		return fmt.Errorf("weights: at least one weight must be positive")
	}
	if l.Reinforcement != "" && !contains(ReinforcementLevels, strings.ToUpper(l.Reinforcement)) {
		return fmt.Errorf("reinforcement: unknown level %q (want %s)", l.Reinforcement, strings.Join(ReinforcementLevels, ", "))
	}
	if l.CompletionTimeout != "" {
		if d, err := time.ParseDuration(l.CompletionTimeout); err != nil || d <= 0 {
			return fmt.Errorf("completion_timeout: %q is not a positive duration (like 10m)", l.CompletionTimeout)
		}
	}
	if l.Collect != "" && l.Collect != "auto" && l.Collect != "none" {
		return fmt.Errorf("collect: want auto or none (got %q)", l.Collect)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
