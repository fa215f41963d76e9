package ghaction

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Event is what ralph-gate reads of the workflow run's triggering event.
type Event struct {
	// Name is GITHUB_EVENT_NAME ("" when run outside a workflow).
	Name string
	// Path is GITHUB_EVENT_PATH, for messages.
	Path string
	// Action is the payload's activity type ("opened", "labeled", ...).
	Action string
	// Repository is "owner/name": GITHUB_REPOSITORY, else the payload's.
	Repository string
	// DefaultBranch is the repository's default branch from the payload.
	DefaultBranch string
	// Before and After are a push's old and new tips; Forced and Deleted say
	// how the push moved the branch.
	Before, After   string
	Forced, Deleted bool
	// Ref is the pushed ref (refs/heads/NAME).
	Ref string
	// PullRequest is set for pull_request and pull_request_target.
	PullRequest *PullRequest
	// MergeGroupBase and MergeGroupHead are a merge queue group's range.
	MergeGroupBase, MergeGroupHead string
	// DispatchBase and DispatchHead are workflow_dispatch inputs named base
	// and head, when the workflow defines them.
	DispatchBase, DispatchHead string
	// Sender is the login of the user who triggered the event, and Label the
	// label a labeled event added.
	Sender, Label string
	// SenderType is "User" or "Bot".
	SenderType string
	// WorkflowRun is set for workflow_run: the run that triggered this one.
	WorkflowRun *WorkflowRun
}

// WorkflowRun is the finished run a workflow_run event reports, as GitHub
// (not the run's code) describes it.
type WorkflowRun struct {
	HeadSHA    string
	Conclusion string
	Event      string
	// PullRequest is the number of the pull request the run was for (0: none,
	// or a fork's, which GitHub does not list).
	PullRequest int
	// TriggeringActor is who made the run happen (who pushed, labeled, or
	// re-ran it), and TriggeringType "User" or "Bot".
	TriggeringActor, TriggeringType string
}

// PullRequest is the part of a pull request payload the gate uses.
type PullRequest struct {
	Number           int
	BaseSHA, HeadSHA string
	BaseRef          string
	Labels           []string
	// HeadRepo and BaseRepo are "owner/name"; they differ for a fork.
	HeadRepo, BaseRepo string
	// Author is the login that opened the pull request.
	Author string
}

// Fork reports whether the pull request comes from another repository, where
// the workflow's token cannot write to this one.
func (p *PullRequest) Fork() bool { return p.HeadRepo != "" && p.HeadRepo != p.BaseRepo }

// HasLabel reports whether the pull request carries label (GitHub compares
// label names case-insensitively).
func (p *PullRequest) HasLabel(label string) bool {
	for _, l := range p.Labels {
		if strings.EqualFold(l, label) {
			return true
		}
	}
	return false
}

// payload holds the fields of the webhook payloads read here. Sample
// (pull_request, trimmed):
//
//	{"action": "synchronize", "number": 7,
//	 "pull_request": {"number": 7, "labels": [{"name": "ralph-gate/approved"}],
//	   "base": {"ref": "main", "sha": "9c4e...", "repo": {"full_name": "o/r"}},
//	   "head": {"ref": "agent/fix", "sha": "3b5d...", "repo": {"full_name": "fork/r"}}},
//	 "repository": {"full_name": "o/r", "default_branch": "main"},
//	 "sender": {"login": "octocat"}}
//
// https://docs.github.com/webhooks/webhook-events-and-payloads
type payload struct {
	Action     string `json:"action"`
	Ref        string `json:"ref"`
	Before     string `json:"before"`
	After      string `json:"after"`
	Forced     bool   `json:"forced"`
	Deleted    bool   `json:"deleted"`
	Repository struct {
		FullName      string `json:"full_name"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	Sender struct {
		Login string `json:"login"`
		Type  string `json:"type"`
	} `json:"sender"`
	Label *struct {
		Name string `json:"name"`
	} `json:"label"`
	PullRequest *struct {
		Number int `json:"number"`
		User   struct {
			Login string `json:"login"`
		} `json:"user"`
		Labels []struct {
			Name string `json:"name"`
		} `json:"labels"`
		Base prEnd `json:"base"`
		Head prEnd `json:"head"`
	} `json:"pull_request"`
	MergeGroup *struct {
		BaseSHA string `json:"base_sha"`
		HeadSHA string `json:"head_sha"`
	} `json:"merge_group"`
	Inputs      map[string]any `json:"inputs"`
	WorkflowRun *struct {
		HeadSHA         string `json:"head_sha"`
		Conclusion      string `json:"conclusion"`
		Event           string `json:"event"`
		TriggeringActor struct {
			Login string `json:"login"`
			Type  string `json:"type"`
		} `json:"triggering_actor"`
		PullRequests []struct {
			Number int `json:"number"`
		} `json:"pull_requests"`
	} `json:"workflow_run"`
}

type prEnd struct {
	Ref  string `json:"ref"`
	SHA  string `json:"sha"`
	Repo *struct {
		FullName string `json:"full_name"`
	} `json:"repo"`
}

func (e prEnd) repo() string {
	if e.Repo == nil {
		return "" // a fork that was deleted
	}
	return e.Repo.FullName
}

// ReadEvent reads GITHUB_EVENT_NAME, GITHUB_EVENT_PATH and GITHUB_REPOSITORY.
// Outside a workflow (no event name) it returns an empty event; an unreadable or
// malformed payload is an error naming the file.
func ReadEvent(getenv func(string) string) (*Event, error) {
	name, path := getenv("GITHUB_EVENT_NAME"), getenv("GITHUB_EVENT_PATH")
	if name == "" {
		return &Event{Repository: getenv("GITHUB_REPOSITORY")}, nil
	}
	var data []byte
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return nil, fmt.Errorf("read GITHUB_EVENT_PATH %s: %w", path, errors.Unwrap(err))
		}
	}
	ev, err := ParseEvent(name, data)
	if err != nil {
		return nil, fmt.Errorf("event payload %s: %w", orText(path, "(GITHUB_EVENT_PATH not set)"), err)
	}
	ev.Path = path
	if r := getenv("GITHUB_REPOSITORY"); r != "" {
		ev.Repository = r
	}
	return ev, nil
}

// ParseEvent reads a webhook payload of the named event. An empty payload is
// an empty event. Pull request events must carry both ends of the range.
func ParseEvent(name string, data []byte) (*Event, error) {
	ev := &Event{Name: name}
	if len(strings.TrimSpace(string(data))) == 0 {
		if isPullRequest(name) {
			return nil, errors.New("empty payload for a " + name + " event")
		}
		return ev, nil
	}
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("not a JSON event payload: %v", err)
	}
	ev.Action = p.Action
	ev.Repository = p.Repository.FullName
	ev.DefaultBranch = p.Repository.DefaultBranch
	ev.Sender, ev.SenderType = p.Sender.Login, p.Sender.Type
	if p.Label != nil {
		ev.Label = p.Label.Name
	}
	switch {
	case isPullRequest(name):
		pr := p.PullRequest
		if pr == nil || !isSHA(pr.Base.SHA) || !isSHA(pr.Head.SHA) {
			return nil, fmt.Errorf("%s payload without pull_request.base.sha and pull_request.head.sha", name)
		}
		ev.PullRequest = &PullRequest{
			Number: pr.Number, BaseSHA: pr.Base.SHA, HeadSHA: pr.Head.SHA, BaseRef: pr.Base.Ref,
			HeadRepo: pr.Head.repo(), BaseRepo: pr.Base.repo(), Author: pr.User.Login,
		}
		for _, l := range pr.Labels {
			ev.PullRequest.Labels = append(ev.PullRequest.Labels, l.Name)
		}
	case name == "push":
		ev.Before, ev.After, ev.Forced, ev.Deleted, ev.Ref = p.Before, p.After, p.Forced, p.Deleted, p.Ref
		if !ev.Deleted && !isSHA(ev.After) {
			return nil, errors.New("push payload without an after SHA")
		}
	case name == "merge_group" && p.MergeGroup != nil:
		ev.MergeGroupBase, ev.MergeGroupHead = p.MergeGroup.BaseSHA, p.MergeGroup.HeadSHA
	case name == "workflow_dispatch":
		ev.DispatchBase, ev.DispatchHead = stringInput(p.Inputs, "base"), stringInput(p.Inputs, "head")
	case name == "workflow_run" && p.WorkflowRun != nil:
		wr := p.WorkflowRun
		if !isSHA(wr.HeadSHA) {
			return nil, errors.New("workflow_run payload without workflow_run.head_sha")
		}
		ev.WorkflowRun = &WorkflowRun{HeadSHA: wr.HeadSHA, Conclusion: wr.Conclusion, Event: wr.Event,
			TriggeringActor: wr.TriggeringActor.Login, TriggeringType: wr.TriggeringActor.Type}
		if len(wr.PullRequests) > 0 {
			ev.WorkflowRun.PullRequest = wr.PullRequests[0].Number
		}
	}
	return ev, nil
}

func stringInput(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return strings.TrimSpace(s)
}

func isPullRequest(name string) bool {
	return name == "pull_request" || name == "pull_request_target"
}

// isSHA reports whether s is a full 40-digit SHA-1 (GitHub's object ids).
func isSHA(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// isZeroSHA reports whether s is the all-zero SHA a push of a new branch (or a
// deletion) carries.
func isZeroSHA(s string) bool { return s != "" && strings.Trim(s, "0") == "" }

func orText(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
