package ghaction

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Approval is whether the approve label overrides a block, and why.
type Approval struct {
	Approved bool
	// By is who applied the label, when it counts.
	By string
	// Note says why a label on the pull request does not count ("" when it
	// does, or when there is none).
	Note string
}

// CheckApproval decides whether the approve label counts. It counts only
// when this run is the label's own "labeled" event (so the head commit is
// the one it was applied on: any later push runs again without it), and
// the person who applied it is not the pull request's author, not a bot,
// not one of BASE's configured agent accounts, and has write access to the
// repository (asked of the API; when it cannot be asked, the label does not
// count). Everyone else's label is reported and ignored.
func CheckApproval(ctx context.Context, ev *Event, label string, agents []string, c Comments) Approval {
	pr := ev.PullRequest
	if pr == nil || !pr.HasLabel(label) {
		return Approval{}
	}
	ignored := func(why string) Approval {
		return Approval{Note: fmt.Sprintf("the label %s is on the pull request but does not count: %s", label, why)}
	}
	if ev.Action != "labeled" || !strings.EqualFold(ev.Label, label) {
		return ignored(fmt.Sprintf("an approval holds only for the commit it was applied on, in the run of its own labeled event (this run is %s %q for %s); a person re-applies it to approve this commit",
			ev.Name, ev.Action, short7(pr.HeadSHA)))
	}
	return approver(ctx, ev.Sender, ev.SenderType, "applied it", pr.Author, agents, c, ignored)
}

// approver checks that who may approve: not the pull request's author, no
// bot, no agent account, and write access to the repository.
func approver(ctx context.Context, who, whoType, did, author string, agents []string, c Comments, ignored func(string) Approval) Approval {
	switch {
	case who == "":
		return ignored("the event does not say who " + did)
	case strings.EqualFold(who, author):
		return ignored(fmt.Sprintf("%s, who %s, opened the pull request", who, did))
	case strings.EqualFold(whoType, "Bot") || strings.HasSuffix(strings.ToLower(who), "[bot]"):
		return ignored(fmt.Sprintf("%s, who %s, is a bot", who, did))
	}
	for _, a := range agents {
		if strings.EqualFold(strings.TrimSpace(a), who) {
			return ignored(fmt.Sprintf("%s, who %s, is an agent account (approve.agent_accounts in .ralph-gate.yml)", who, did))
		}
	}
	perm, err := c.permission(ctx, who)
	if err != nil {
		return ignored(fmt.Sprintf("%s's permission on %s could not be checked (%v)", who, c.Repo, err))
	}
	switch perm {
	case "admin", "maintain", "write":
		return Approval{Approved: true, By: who}
	}
	return ignored(fmt.Sprintf("%s, who %s, has %s access to %s, not write", who, did, orText(perm, "no"), c.Repo))
}

// CheckRunApproval is CheckApproval for the report job of the two-job
// workflow, which sees the measure run, not the labeled event: the label
// counts when it is on the pull request now, the pull request's head is
// still the commit the run measured, and the person who triggered that run
// (by applying the label, or by re-running it) may approve. A run a push
// triggered is the pusher's, who is the agent.
func CheckRunApproval(ctx context.Context, wr *WorkflowRun, label string, agents []string, c Comments) Approval {
	if wr == nil || wr.PullRequest == 0 {
		return Approval{}
	}
	pr, err := c.pullRequest(ctx, wr.PullRequest)
	if err != nil {
		return Approval{Note: fmt.Sprintf("the approve label could not be checked: pull request #%d: %v", wr.PullRequest, err)}
	}
	if !pr.HasLabel(label) {
		return Approval{}
	}
	ignored := func(why string) Approval {
		return Approval{Note: fmt.Sprintf("the label %s is on the pull request but does not count: %s", label, why)}
	}
	if pr.HeadSHA != wr.HeadSHA {
		return ignored(fmt.Sprintf("the pull request's head is %s now, not %s, the commit this run measured", short7(pr.HeadSHA), short7(wr.HeadSHA)))
	}
	return approver(ctx, wr.TriggeringActor, wr.TriggeringType, "triggered the measure run", pr.Author, agents, c, ignored)
}

// pullRequest reads a pull request's head, author and labels.
func (c Comments) pullRequest(ctx context.Context, number int) (*PullRequest, error) {
	if c.Token == "" {
		return nil, fmt.Errorf("no token")
	}
	var out struct {
		User struct {
			Login string `json:"login"`
		} `json:"user"`
		Head struct {
			SHA string `json:"sha"`
		} `json:"head"`
		Labels []struct {
			Name string `json:"name"`
		} `json:"labels"`
	}
	api := strings.TrimRight(c.API, "/")
	if _, err := c.do(ctx, http.MethodGet, fmt.Sprintf("%s/repos/%s/pulls/%d", api, c.Repo, number), nil, &out); err != nil {
		return nil, err
	}
	pr := &PullRequest{Number: number, HeadSHA: out.Head.SHA, Author: out.User.Login}
	for _, l := range out.Labels {
		pr.Labels = append(pr.Labels, l.Name)
	}
	return pr, nil
}

// SetStatus sets the commit status context "ralph-gate" on sha: the check a
// branch protection rule requires in the two-job workflow, set only by the
// report job, which runs no code of the pull request.
func (c Comments) SetStatus(ctx context.Context, sha, state, description string) error {
	if c.Token == "" {
		return fmt.Errorf("no token: %w", ErrNoPermission)
	}
	if len(description) > 140 {
		description = description[:137] + "..."
	}
	api := strings.TrimRight(c.API, "/")
	_, err := c.do(ctx, http.MethodPost, fmt.Sprintf("%s/repos/%s/statuses/%s", api, c.Repo, sha),
		map[string]string{"state": state, "context": "ralph-gate", "description": description}, nil)
	return err
}

// permission asks the API for a user's permission on the repository.
func (c Comments) permission(ctx context.Context, login string) (string, error) {
	if c.Token == "" {
		return "", fmt.Errorf("no token")
	}
	api := strings.TrimRight(c.API, "/")
	var out struct {
		Permission string `json:"permission"`
		RoleName   string `json:"role_name"`
	}
	if _, err := c.do(ctx, http.MethodGet, fmt.Sprintf("%s/repos/%s/collaborators/%s/permission", api, c.Repo, url.PathEscape(login)), nil, &out); err != nil {
		return "", err
	}
	if out.RoleName == "maintain" {
		return "maintain", nil
	}
	return out.Permission, nil
}

func short7(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}
