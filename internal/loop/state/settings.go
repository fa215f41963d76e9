package state

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-gate/ralph-gate/internal/config"
)

// Settings are a loop's thresholds and weights, resolved once at start from
// the defaults, aiwg.yml, .ralph-gate.yml's loop section and the flags (in
// that order, the later winning) and kept in state.json, so that nothing an
// agent commits later can loosen them.
type Settings struct {
	MaxIterations  int `json:"max_iterations"`
	MinIterations  int `json:"min_iterations"`
	TimeoutMinutes int `json:"timeout_minutes,omitempty"`
	// QualityStop, ImprovementStop and PlateauThreshold are in points (0-100).
	QualityStop      float64 `json:"quality_stop"`
	ImprovementStop  float64 `json:"improvement_stop"`
	PlateauWindow    int     `json:"plateau_window"`
	PlateauThreshold float64 `json:"plateau_threshold"`
	MaxRegressions   int     `json:"max_regressions"`
	// QualityThreshold is the least score the best iteration needs.
	QualityThreshold    float64 `json:"quality_threshold"`
	RequireVerification bool    `json:"require_verification"`
	// Weights of validation, completeness, correctness, readability and
	// efficiency, summing to 100.
	Weights map[string]float64 `json:"weights"`
	// Reinforcement is the starting level; Escalation maps an iteration
	// number to the level the loop reaches there.
	Reinforcement     string         `json:"reinforcement"`
	Escalation        map[int]string `json:"escalation"`
	PlateauEscalation string         `json:"plateau_escalation"`
	MaxRetries        int            `json:"max_retries"`
	// StuckAfter is how many iterations in a row with the same failure
	// fingerprint escalate to the human gate.
	StuckAfter        int    `json:"stuck_after"`
	CompletionTimeout string `json:"completion_timeout"`
	Collect           string `json:"collect"`
	// Sources lists where settings came from, for status.
	Sources []string `json:"sources,omitempty"`
}

// Defaults are the seeds' values (iteration-analytics, persistence hooks) and
// DESIGN.md's.
func Defaults() Settings {
	return Settings{
		MaxIterations:    10,
		MinIterations:    3,
		QualityStop:      95,
		ImprovementStop:  5,
		PlateauWindow:    3,
		PlateauThreshold: 3,
		MaxRegressions:   2,
		QualityThreshold: 70,
		Weights: map[string]float64{
			"validation": 30, "completeness": 25, "correctness": 25, "readability": 10, "efficiency": 10,
		},
		Reinforcement:     "MINIMAL",
		Escalation:        map[int]string{3: "STANDARD", 5: "AGGRESSIVE"},
		PlateauEscalation: "AGGRESSIVE",
		MaxRetries:        3,
		StuckAfter:        3,
		CompletionTimeout: "10m",
		Collect:           "auto",
	}
}

// CompletionTimeoutDuration parses CompletionTimeout.
func (s Settings) CompletionTimeoutDuration() time.Duration {
	d, err := time.ParseDuration(s.CompletionTimeout)
	if err != nil || d <= 0 {
		return 10 * time.Minute
	}
	return d
}

// aiwgFile is the part of aiwg.yml ralph-gate reads. Other sections are
// AIWG's and ignored.
type aiwgFile struct {
	AgentPersistence struct {
		Reinforcement struct {
			DefaultLevel            string            `yaml:"default_level"`
			EscalationThresholds    map[string]string `yaml:"escalation_thresholds"`
			QualityPlateauThreshold *float64          `yaml:"quality_plateau_threshold"`
		} `yaml:"reinforcement"`
		Recovery struct {
			MaxRetries *int `yaml:"max_retries"`
		} `yaml:"recovery"`
		BestOutputSelection struct {
			QualityThreshold    *float64 `yaml:"quality_threshold"`
			RequireVerification *bool    `yaml:"require_verification"`
		} `yaml:"best_output_selection"`
	} `yaml:"agent_persistence"`
	Ralph struct {
		MinIterations        *int     `yaml:"minIterations"`
		MaxIterations        *int     `yaml:"maxIterations"`
		ImprovementThreshold *float64 `yaml:"improvementThreshold"`
		QualityThreshold     *float64 `yaml:"qualityThreshold"`
		PlateauWindow        *int     `yaml:"plateauWindow"`
		PlateauThreshold     *float64 `yaml:"plateauThreshold"`
		MaxRegressions       *int     `yaml:"maxRegressions"`
	} `yaml:"ralph"`
}

// points reads a threshold that AIWG writes as a fraction (0.05) or as points
// (5).
func points(v float64) float64 {
	if v > 0 && v <= 1 {
		return v * 100
	}
	return v
}

// ApplyAIWG applies aiwg.yml's agent_persistence and ralph sections. name is
// how errors refer to the file.
func (s *Settings) ApplyAIWG(name string, data []byte) error {
	var f aiwgFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	r := f.AgentPersistence.Reinforcement
	if r.DefaultLevel != "" {
		lvl, err := parseLevel(r.DefaultLevel)
		if err != nil {
			return fmt.Errorf("%s: agent_persistence.reinforcement.default_level: %w", name, err)
		}
		s.Reinforcement = lvl
	}
	if len(r.EscalationThresholds) > 0 {
		esc := map[int]string{}
		keys := make([]string, 0, len(r.EscalationThresholds))
		for k := range r.EscalationThresholds {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "quality_plateau" {
				lvl, err := parseLevel(r.EscalationThresholds[k])
				if err != nil {
					return fmt.Errorf("%s: escalation_thresholds.%s: %w", name, k, err)
				}
				s.PlateauEscalation = lvl
				continue
			}
			n, err := strconv.Atoi(strings.TrimPrefix(k, "iteration_"))
			if err != nil || !strings.HasPrefix(k, "iteration_") || n < 1 {
				return fmt.Errorf("%s: escalation_thresholds: key %q is not iteration_N", name, k)
			}
			lvl, err := parseLevel(r.EscalationThresholds[k])
			if err != nil {
				return fmt.Errorf("%s: escalation_thresholds.%s: %w", name, k, err)
			}
			esc[n] = lvl
		}
		s.Escalation = esc
	}
	if v := r.QualityPlateauThreshold; v != nil {
		s.PlateauThreshold = points(*v)
	}
	if v := f.AgentPersistence.Recovery.MaxRetries; v != nil {
		s.MaxRetries = *v
	}
	b := f.AgentPersistence.BestOutputSelection
	if b.QualityThreshold != nil {
		s.QualityThreshold = points(*b.QualityThreshold)
	}
	if b.RequireVerification != nil {
		s.RequireVerification = *b.RequireVerification
	}
	ra := f.Ralph
	setInt(&s.MinIterations, ra.MinIterations)
	setInt(&s.MaxIterations, ra.MaxIterations)
	setInt(&s.PlateauWindow, ra.PlateauWindow)
	setInt(&s.MaxRegressions, ra.MaxRegressions)
	if ra.ImprovementThreshold != nil {
		s.ImprovementStop = points(*ra.ImprovementThreshold)
	}
	if ra.QualityThreshold != nil {
		s.QualityStop = points(*ra.QualityThreshold)
	}
	if ra.PlateauThreshold != nil {
		s.PlateauThreshold = points(*ra.PlateauThreshold)
	}
	s.Sources = append(s.Sources, name)
	return s.check(name)
}

// ApplyConfig applies .ralph-gate.yml's loop section (already validated by
// config.Parse).
func (s *Settings) ApplyConfig(name string, l config.Loop) error {
	setInt(&s.MaxIterations, l.MaxIterations)
	setInt(&s.MinIterations, l.MinIterations)
	setInt(&s.MaxRetries, l.MaxRetries)
	setInt(&s.PlateauWindow, l.Stop.PlateauWindow)
	setInt(&s.MaxRegressions, l.Stop.MaxRegressions)
	setFloat(&s.QualityThreshold, l.QualityThreshold)
	setFloat(&s.QualityStop, l.Stop.Quality)
	setFloat(&s.ImprovementStop, l.Stop.Improvement)
	setFloat(&s.PlateauThreshold, l.Stop.PlateauThreshold)
	if l.RequireVerification != nil {
		s.RequireVerification = *l.RequireVerification
	}
	if len(l.Weights) > 0 {
		w := map[string]float64{}
		for _, d := range config.QualityDimensions {
			w[d] = l.Weights[d]
		}
		s.Weights = w
	}
	if l.Reinforcement != "" {
		s.Reinforcement = strings.ToUpper(l.Reinforcement)
	}
	if l.CompletionTimeout != "" {
		s.CompletionTimeout = l.CompletionTimeout
	}
	if l.Collect != "" {
		s.Collect = l.Collect
	}
	s.Sources = append(s.Sources, name)
	return s.check(name)
}

// Normalize scales the weights to sum to 100.
func (s *Settings) Normalize() {
	sum := 0.0
	for _, d := range config.QualityDimensions {
		sum += s.Weights[d]
	}
	if sum <= 0 {
		s.Weights = Defaults().Weights
		return
	}
	w := map[string]float64{}
	for _, d := range config.QualityDimensions {
		w[d] = s.Weights[d] * 100 / sum
	}
	s.Weights = w
}

func (s *Settings) check(name string) error {
	switch {
	case s.MaxIterations < 1:
		return fmt.Errorf("%s: max iterations must be at least 1 (got %d)", name, s.MaxIterations)
	case s.MinIterations < 0:
		return fmt.Errorf("%s: min iterations must not be negative (got %d)", name, s.MinIterations)
	case s.MaxRetries < 1:
		return fmt.Errorf("%s: max retries must be at least 1 (got %d)", name, s.MaxRetries)
	case s.QualityThreshold < 0 || s.QualityThreshold > 100:
		return fmt.Errorf("%s: quality threshold must be 0 to 100 (got %g)", name, s.QualityThreshold)
	}
	return nil
}

func parseLevel(v string) (string, error) {
	u := strings.ToUpper(strings.TrimSpace(v))
	for _, l := range config.ReinforcementLevels {
		if l == u {
			return u, nil
		}
	}
	return "", fmt.Errorf("unknown reinforcement level %q (want %s)", v, strings.Join(config.ReinforcementLevels, ", "))
}

func setInt(dst *int, v *int) {
	if v != nil {
		*dst = *v
	}
}

func setFloat(dst *float64, v *float64) {
	if v != nil {
		*dst = *v
	}
}

// aiwgKeys are the aiwg.yml keys ralph-gate reads (README, Configuration);
// a key ending in ".*" takes any key below it.
var aiwgKeys = []string{
	"agent_persistence.reinforcement.default_level",
	"agent_persistence.reinforcement.escalation_thresholds.*",
	"agent_persistence.reinforcement.quality_plateau_threshold",
	"agent_persistence.recovery.max_retries",
	"agent_persistence.best_output_selection.quality_threshold",
	"agent_persistence.best_output_selection.require_verification",
	"ralph.minIterations", "ralph.maxIterations", "ralph.improvementThreshold", "ralph.qualityThreshold",
	"ralph.plateauWindow", "ralph.plateauThreshold", "ralph.maxRegressions",
}

// UnknownAIWGKeys lists the keys of aiwg.yml that ralph-gate does not read,
// by their dotted paths (a whole section once), sorted: they are AIWG's or
// misspelt, and either way they change nothing here, which the user is
// told rather than left to guess.
func UnknownAIWGKeys(data []byte) []string {
	var doc map[string]any
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	known := map[string]bool{}
	prefixes := map[string]bool{}
	for _, k := range aiwgKeys {
		if strings.HasSuffix(k, ".*") {
			known[strings.TrimSuffix(k, ".*")] = true
			continue
		}
		known[k] = true
		parts := strings.Split(k, ".")
		for i := 1; i < len(parts); i++ {
			prefixes[strings.Join(parts[:i], ".")] = true
		}
	}
	var out []string
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			path := k
			if prefix != "" {
				path = prefix + "." + k
			}
			switch {
			case known[path]:
			case prefixes[path]:
				if sub, ok := v.(map[string]any); ok {
					walk(path, sub)
				} else {
					out = append(out, path)
				}
			default:
				out = append(out, path)
			}
		}
	}
	walk("", doc)
	sort.Strings(out)
	return out
}
