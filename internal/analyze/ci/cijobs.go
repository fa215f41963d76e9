package ci

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// A GitHub Actions job or step switched off with `if: false` runs nothing:
// what it ran is lost unless another job runs it. One that was already
// off at BASE (the workflow renamed around it), or that runs no check (a
// docs deploy), switches off no gate.

// wfJob is a workflow job as far as the rules need it:
//
//	jobs:
//	  test:
//	    if: false
//	    steps:
//	      - run: make test
type wfJob struct {
	id    string
	off   bool // `if: false`
	offAt int  // the line of its if:
	steps []wfStep
	// matrix are the strings of its strategy's matrix, when a step's
	// script takes one (`run: ${{ matrix.command }}`).
	matrix []string
}

// wfStep is a step's script and whether `if: false` switches it off.
type wfStep struct {
	run   string
	off   bool
	offAt int
}

// workflowJobs reads a workflow's jobs by id; nil when it does not parse.
func workflowJobs(data []byte) (map[string]*wfJob, []string) {
	r := readWorkflow(data)
	return r.jobs, r.order
}

// jobsOf reads the jobs of a workflow's parsed YAML (see workflowJobs).
func jobsOf(doc *yaml.Node) (map[string]*wfJob, []string) {
	if len(doc.Content) == 0 {
		return nil, nil
	}
	jobs := mapGet(doc.Content[0], "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return nil, nil
	}
	out := map[string]*wfJob{}
	var order []string
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		id, n := jobs.Content[i].Value, jobs.Content[i+1]
		j := &wfJob{id: id}
		if c := mapGet(n, "if"); isFalse(c) {
			j.off, j.offAt = true, c.Line
		}
		if steps := mapGet(n, "steps"); steps != nil && steps.Kind == yaml.SequenceNode {
			for _, st := range steps.Content {
				s := wfStep{run: withoutExpressions(scalar(mapGet(st, "run")))}
				if c := mapGet(st, "if"); isFalse(c) {
					s.off, s.offAt = true, c.Line
				}
				j.steps = append(j.steps, s)
			}
		}
		if m := mapGet(mapGet(n, "strategy"), "matrix"); m != nil && strings.Contains(nodeRuns(n), "matrix.") {
			j.matrix = yamlStrings(m, nil)
		}
		out[id] = j
		order = append(order, id)
	}
	return out, order
}

// isFalse reports an `if:` that is false whatever the event: false,
// 'false', ${{ false }}.
func isFalse(n *yaml.Node) bool {
	v := strings.TrimSpace(scalar(n))
	v = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(v, "${{"), "}}"))
	return v == "false"
}

// disabledJobs reports the jobs and steps of the change's workflows that
// `if: false` switched off and that ran checks no job of HEAD runs.
func disabledJobs(changed []*File, head *ciWorld) []gate.Finding {
	var out []gate.Finding
	headKeys := head.entryKeys()
	for _, fc := range changed {
		if !workflowLoaded(fc.NewPath) || fc.New == nil {
			continue
		}
		cur, order := workflowJobs(fc.New)
		if cur == nil {
			continue
		}
		var old map[string]*wfJob
		if fc.OldPath != "" && fc.Old != nil {
			old, _ = workflowJobs(fc.Old)
		}
		for _, id := range order {
			j := cur[id]
			oj := old[id]
			if oj == nil {
				oj = &wfJob{}
			}
			var runs []string
			line, what := 0, ""
			switch {
			case j.off && !oj.off:
				for _, s := range j.steps {
					runs = append(runs, s.run)
				}
				line, what = j.offAt, "job `"+id+"`"
			case !j.off:
				for i, s := range j.steps {
					if s.off && !(i < len(oj.steps) && oj.steps[i].off && oj.steps[i].run == s.run) {
						runs = append(runs, s.run)
						if line == 0 {
							line, what = s.offAt, "a step of job `"+id+"`"
						}
					}
				}
			}
			if line == 0 {
				continue
			}
			keys := map[string]bool{}
			for _, src := range runs {
				head.scriptKeys(".", src, keys)
			}
			if len(keys) == 0 {
				// It runs no check (a deploy, a docs build): worth a look,
				// not a gate switched off.
				out = append(out, gate.NewFinding(gate.RuleStepDisabled, gate.SeverityMedium, fc.NewPath, line, "", "", "if false "+id,
					fmt.Sprintf("%s in %s, which runs no check, was switched off with `if: false`.", what, fc.NewPath)))
				continue
			}
			var lost []string
			for _, k := range SortedKeys(keys) {
				if !headKeys[k] {
					lost = append(lost, k)
				}
			}
			if len(lost) == 0 {
				continue // another job runs them
			}
			out = append(out, gate.NewFinding(gate.RuleStepDisabled, gate.SeverityCritical, fc.NewPath, line, "", "", "if false "+id,
				fmt.Sprintf("%s in %s was switched off with `if: false`: its checks (%s) no longer run.", what, fc.NewPath, QuotedList(lost))))
		}
	}
	return out
}

// parsesAsJobs reports a workflow whose jobs workflowJobs reads.
func parsesAsJobs(data []byte) bool {
	jobs, _ := workflowJobs(data)
	return jobs != nil
}

// yamlStrings gathers the string scalars below a node.
func yamlStrings(n *yaml.Node, out []string) []string {
	if n == nil {
		return out
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!str" {
			out = append(out, n.Value)
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			out = yamlStrings(n.Content[i], out)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			out = yamlStrings(c, out)
		}
	}
	return out
}

// nodeRuns is the text of a job's run scripts, expressions kept.
func nodeRuns(job *yaml.Node) string {
	var b strings.Builder
	if steps := mapGet(job, "steps"); steps != nil && steps.Kind == yaml.SequenceNode {
		for _, st := range steps.Content {
			b.WriteString(scalar(mapGet(st, "run")))
			b.WriteByte('\n')
		}
	}
	return b.String()
}
