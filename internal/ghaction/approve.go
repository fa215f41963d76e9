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
	who := ev.Sender
	switch {
	case who == "":
		return ignored("the event does not say who applied it")
	case strings.EqualFold(who, pr.Author):
		return ignored(fmt.Sprintf("%s, who applied it, opened the pull request", who))
	case strings.EqualFold(ev.SenderType, "Bot") || strings.HasSuffix(strings.ToLower(who), "[bot]"):
		return ignored(fmt.Sprintf("%s, who applied it, is a bot", who))
	}
	for _, a := range agents {
		if strings.EqualFold(strings.TrimSpace(a), who) {
			return ignored(fmt.Sprintf("%s, who applied it, is an agent account (approve.agent_accounts in .ralph-gate.yml)", who))
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
	return ignored(fmt.Sprintf("%s, who applied it, has %s access to %s, not write", who, orText(perm, "no"), c.Repo))
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
