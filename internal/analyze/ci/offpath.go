package ci

import (
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"strings"

	"go.yaml.in/yaml/v3"
)

// offPathSource matches a GitLab rule condition that only pipelines no
// change starts satisfy: `$CI_PIPELINE_SOURCE == "schedule"` or "web" (a
// person). A trigger token, the API and another project's pipeline may all
// be a change's doing, so they stay on the path.
var offPathSource = lazyre.New(`^\s*\$\{?CI_PIPELINE_SOURCE\}?\s*==\s*["']?(schedule|web)["']?\s*$`)

// gitlabJobOffPath returns the name of the .gitlab-ci.yml job whose block
// holds line (1-based) and whether that job runs only in pipelines that no
// change starts: `only: [schedules]` (or web), or
// rules whose every rule that can run is an `if:` on such a pipeline source
// (`$CI_PIPELINE_SOURCE == "schedule"`, nothing or-ed to it). A job with no
// such restriction, or one the file does not parse into, is on the path.
func gitlabJobOffPath(data []byte, line int) (string, bool) {
	root := topMapping(data)
	if root == nil {
		return "", false
	}
	top := root.Content
	for i := 0; i+1 < len(top); i += 2 {
		k, v := top[i], top[i+1]
		end := 1 << 30
		if i+2 < len(top) {
			end = top[i+2].Line
		}
		if line < k.Line || line >= end {
			continue
		}
		if v.Kind != yaml.MappingNode {
			return k.Value, false
		}
		return k.Value, gitlabOffPath(v)
	}
	return "", false
}

// gitlabJobNamedOffPath is gitlabJobOffPath for a job found by name: false
// when the file has no such job.
func gitlabJobNamedOffPath(data []byte, name string) (found, off bool) {
	job := mapGet(topMapping(data), name)
	return job != nil, job != nil && job.Kind == yaml.MappingNode && gitlabOffPath(job)
}

// topMapping parses a YAML file whose top level is a mapping; nil when it
// does not parse or is something else.
func topMapping(data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return doc.Content[0]
}

func gitlabOffPath(job *yaml.Node) bool {
	for i := 0; i+1 < len(job.Content); i += 2 {
		k, v := job.Content[i].Value, job.Content[i+1]
		switch k {
		case "only":
			refs := v
			if v.Kind == yaml.MappingNode {
				refs = mapGet(v, "refs")
			}
			if refs == nil || refs.Kind != yaml.SequenceNode || len(refs.Content) == 0 {
				return false
			}
			for _, r := range refs.Content {
				switch r.Value {
				case "schedules", "web":
				default:
					return false
				}
			}
			return true
		case "rules":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				return false
			}
			runs := 0
			for _, r := range v.Content {
				if r.Kind != yaml.MappingNode {
					return false
				}
				cond := scalar(mapGet(r, "if"))
				if scalar(mapGet(r, "when")) == "never" {
					continue
				}
				runs++
				if !offPathCond(cond) {
					return false
				}
			}
			return runs > 0
		}
	}
	return false
}

// offPathCond reports a rule condition that holds only in pipelines no
// change starts: one pipeline-source comparison, or several and-ed.
func offPathCond(cond string) bool {
	if cond == "" || strings.Contains(cond, "||") {
		return false
	}
	for _, part := range strings.Split(cond, "&&") {
		if offPathSource.MatchString(strings.Trim(strings.TrimSpace(part), "()")) {
			return true
		}
	}
	return false
}

// lineOffPR reports whether job j, or its step holding line (1-based), has
// an `if:` that is false on every pull_request run (offOnPullRequest), and
// returns the job's id.
func lineOffPR(j *jobAt, line int) (job string, off bool) {
	if j == nil {
		return "", false
	}
	if offOnPullRequest(scalar(mapGet(j.node, "if"))) {
		return j.id, true
	}
	if steps := mapGet(j.node, "steps"); steps != nil && steps.Kind == yaml.SequenceNode {
		for i, st := range steps.Content {
			end := j.end
			if i+1 < len(steps.Content) {
				end = steps.Content[i+1].Line
			}
			if line >= st.Line && line < end && st.Kind == yaml.MappingNode {
				return j.id, offOnPullRequest(scalar(mapGet(st, "if")))
			}
		}
	}
	return j.id, false
}

// workflowJobOffPR reports whether the job id of a workflow is switched off
// on pull requests by its own `if:`; found is false when there is no such
// job.
func workflowJobOffPR(data []byte, id string) (found, off bool) {
	jobs := jobsNode(data)
	if jobs == nil {
		return false, false
	}
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		if jobs.Content[i].Value == id {
			return true, offOnPullRequest(scalar(mapGet(jobs.Content[i+1], "if")))
		}
	}
	return false, false
}

type jobAt struct {
	id   string
	node *yaml.Node
	end  int
}

func jobsNode(data []byte) *yaml.Node {
	jobs := mapGet(topMapping(data), "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return nil
	}
	return jobs
}

// workflowJobAt returns the job whose block holds line; nil when none does.
func workflowJobAt(data []byte, line int) *jobAt {
	jobs := jobsNode(data)
	if jobs == nil {
		return nil
	}
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		end := 1 << 30
		if i+2 < len(jobs.Content) {
			end = jobs.Content[i+2].Line
		}
		if line >= jobs.Content[i].Line && line < end && jobs.Content[i+1].Kind == yaml.MappingNode {
			return &jobAt{jobs.Content[i].Value, jobs.Content[i+1], end}
		}
	}
	return nil
}

// jobLevelContext returns the whole block of workflow job j when line n
// is one of the job's own keys (`continue-on-error: true` beside
// `runs-on:`): what the key applies to is every step of the job, not the
// lines around it.
func jobLevelContext(j *jobAt, lines []string, n int) (string, bool) {
	if j == nil {
		return "", false
	}
	for i := 0; i+1 < len(j.node.Content); i += 2 {
		if j.node.Content[i].Line == n {
			start, end := j.node.Line-1, min(j.end-1, len(lines))
			if start < 0 || start >= end {
				return "", false
			}
			return strings.Join(lines[start:end], "\n"), true
		}
	}
	return "", false
}
