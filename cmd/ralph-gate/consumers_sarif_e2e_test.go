package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const sarifMultitoolVersion = "5.7.0"

// sarifMultitool finds Microsoft's SARIF multitool in the npm install named
// by $RALPH_GATE_SARIF_MULTITOOL_DIR (.ci/run installs it there). The test
// runs the platform package's executable itself: the package's bin.js passes
// its arguments through a shell, which cuts "Ghas;Sarif" at the semicolon.
func sarifMultitool(t *testing.T) string {
	t.Helper()
	hint := "npm install --prefix DIR @microsoft/sarif-multitool@" + sarifMultitoolVersion + " and set RALPH_GATE_SARIF_MULTITOOL_DIR=DIR"
	dir := os.Getenv("RALPH_GATE_SARIF_MULTITOOL_DIR")
	if dir == "" {
		missingTool(t, "RALPH_GATE_REQUIRE_SARIF_MULTITOOL", "RALPH_GATE_SARIF_MULTITOOL_DIR is not set: "+hint)
	}
	platform, exe := runtime.GOOS, "Sarif.Multitool"
	if platform == "windows" {
		platform, exe = "win32", exe+".exe"
	}
	bin := filepath.Join(dir, "node_modules", "@microsoft", "sarif-multitool-"+platform, exe)
	out, err := exec.Command(bin, "--version").CombinedOutput() // it writes its version to standard error
	if err != nil || !strings.Contains(string(out), "SARIF Multitool "+sarifMultitoolVersion+"+") {
		missingTool(t, "RALPH_GATE_REQUIRE_SARIF_MULTITOOL", bin+" is not SARIF Multitool "+sarifMultitoolVersion+" ("+strings.TrimSpace(string(out))+"): "+hint)
	}
	return bin
}

// acceptedSARIFNotes are the multitool's notes (suggestions, not faults)
// ralph-gate's SARIF may carry, and why. Errors and warnings are never
// accepted: each one the multitool reported was a real defect and is fixed
// (SARIF1001: a rule's name equal to its id but for case; SARIF2005: a
// version such as "devel" or "v1.2.3" that does not start with a digit).
// A note not listed here fails the test, to be fixed or listed.
var acceptedSARIFNotes = map[string]string{
	"SARIF2002": "message ids with arguments: each result's text is its own sentence, which code scanning shows",
	"SARIF2003": "versionControlProvenance: ralph-gate does not know the repository's URI; upload-sarif sends the commit and ref",
	"SARIF2006": "an unreachable URI: the multitool GETs the $schema address, which a machine without internet cannot reach",
	"SARIF2009": "rule ids like CS2001: the ids are the JSON contract's finding types (test_deletion, ...)",
	"SARIF2010": "region snippets: code scanning shows the file at the analyzed commit; a deleted test's line is not there",
	"SARIF2011": "context regions: as for snippets",
	"SARIF2012": "helpUri: each rule carries its help text and markdown; there is no page per rule",
}

// TestSARIFMultitoolValidates: Microsoft's SARIF multitool validates
// ralph-gate's SARIF with its SARIF rules and GitHub's ingestion rules
// (--rule-kind Ghas;Sarif): no error, no warning, and only the notes of
// acceptedSARIFNotes. The same output with a rule's help removed, validated in
// the same run, must raise GitHub's GH2012 error: proof that the GitHub
// rules ran at all.
func TestSARIFMultitoolValidates(t *testing.T) {
	t.Parallel()
	slow(t)
	bin := sarifMultitool(t)
	r, base := cheatRepo(t)
	res := runGate(t, r.dir, "", "analyze", "--format", "sarif", base, "HEAD")
	if res.code != 1 {
		t.Fatalf("analyze: exit %d, want 1 (blocked)\n%s", res.code, res.stderr)
	}
	dir := t.TempDir()
	ours := filepath.Join(dir, "ralph-gate.sarif")
	if err := os.WriteFile(ours, []byte(res.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	var broken map[string]any
	if err := json.Unmarshal([]byte(res.stdout), &broken); err != nil {
		t.Fatalf("analyze --format sarif is not JSON: %v", err)
	}
	rule := broken["runs"].([]any)[0].(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)[0].(map[string]any)
	delete(rule, "help")
	canary := filepath.Join(dir, "canary.sarif")
	if err := os.WriteFile(canary, mustMarshal(t, broken), 0o644); err != nil {
		t.Fatal(err)
	}

	logFile := filepath.Join(dir, "validation.sarif")
	v := command(t, dir, os.Environ(), "", bin, "validate", "--rule-kind", "Ghas;Sarif", "--level", "Error;Warning;Note",
		"-o", logFile, ours, canary)
	if v.code != 0 {
		t.Fatalf("sarif-multitool validate: exit %d\n%s%s", v.code, v.stdout, v.stderr)
	}
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatalf("the multitool wrote no log: %v\n%s", err, v.stdout)
	}
	found := readValidation(t, data)
	var problems []string
	for _, f := range found[filepath.Base(ours)] {
		if f.level == "note" && acceptedSARIFNotes[f.rule] != "" {
			continue
		}
		problems = append(problems, f.level+" "+f.rule)
	}
	if len(problems) > 0 {
		t.Errorf("the multitool found %s in ralph-gate's SARIF:\n%s", strings.Join(problems, ", "), v.stdout)
	}
	if !slices.Contains(found[filepath.Base(canary)], validationResult{"GH2012", "error"}) {
		t.Errorf("no GH2012 error for a rule without help: did the GitHub rules run? %v\n%s", found[filepath.Base(canary)], v.stdout)
	}
}

// validationResult is one result of the multitool's log: its rule and level.
type validationResult struct{ rule, level string }

// readValidation reads the multitool's SARIF log into its results per
// analyzed file (by base name). A result without a level has its rule's
// default level, else "warning" (SARIF 2.1.0 §3.27.10).
func readValidation(t *testing.T, data []byte) map[string][]validationResult {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID                   string `json:"id"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("the multitool's log is not one SARIF run: %v\n%s", err, data)
	}
	run := log.Runs[0]
	defaults := map[string]string{}
	for _, r := range run.Tool.Driver.Rules {
		defaults[r.ID] = r.DefaultConfiguration.Level
	}
	out := map[string][]validationResult{}
	for _, res := range run.Results {
		level := res.Level
		if level == "" {
			level = defaults[res.RuleID]
		}
		if level == "" {
			level = "warning"
		}
		file := ""
		if len(res.Locations) > 0 {
			file = filepath.Base(res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		}
		out[file] = append(out[file], validationResult{res.RuleID, level})
	}
	return out
}
