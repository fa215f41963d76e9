package ghaction

import "fmt"

// Spec is the range to check, as revisions the checkout should resolve.
type Spec struct {
	// Base is BASE's revision. Empty means the merge-base of Head with the
	// default branch.
	Base string
	// MergeBase says the range starts at the merge-base of Base and Head
	// rather than at Base (a force-push, whose old tip may not be an ancestor).
	MergeBase bool
	// Head is HEAD's revision ("" for the checkout's HEAD).
	Head string
	// DefaultBranch is the repository's default branch from the payload; ""
	// lets the checkout's origin/HEAD decide.
	DefaultBranch string
	// Deleted: the push deleted a branch, so there is nothing to check.
	Deleted bool
	// From says, for the log, where the range came from.
	From string
}

// Spec decides the range: the base and head inputs win; otherwise
//
//   - pull_request, pull_request_target: pull_request.base.sha..head.sha;
//   - push to a branch other than the default: the merge-base of after with
//     the default branch..after. Never before..after: the "before" commit
//     was pushed by the same author, so judging from it would let one push
//     loosen .ralph-gate.yml and the next delete tests, or one push delete a
//     test and the next be judged alone;
//   - push to the default branch: before..after (its history is the
//     trusted one; a force-push starts at the merge-base of the old and new
//     tips);
//   - merge_group: base_sha..head_sha;
//   - workflow_dispatch: the dispatch inputs base and head when the workflow
//     defines them, else the merge-base of HEAD with the default branch;
//   - any other event: the merge-base of HEAD with the default branch.
func (e *Event) Spec(in Inputs) Spec {
	s := Spec{DefaultBranch: e.DefaultBranch}
	switch {
	case e.PullRequest != nil:
		s.Base, s.Head = e.PullRequest.BaseSHA, e.PullRequest.HeadSHA
		s.From = fmt.Sprintf("%s #%d: pull_request.base.sha..pull_request.head.sha", e.Name, e.PullRequest.Number)
	case e.Name == "push" && e.Deleted:
		s.Deleted = true
		s.From = "push deleting a branch"
	case e.Name == "push" && !e.toDefaultBranch():
		s.Head = e.After
		s.From = "push: merge-base with the default branch..after (the whole branch, not the last push)"
	case e.Name == "push" && isZeroSHA(e.Before):
		s.Head = e.After
		s.From = "push of the default branch: merge-base with the default branch..after"
	case e.Name == "push" && e.Forced:
		s.Base, s.Head, s.MergeBase = e.Before, e.After, true
		s.From = "force-push of the default branch: merge-base of before and after..after"
	case e.Name == "push":
		s.Base, s.Head = e.Before, e.After
		s.From = "push of the default branch: before..after"
	case e.Name == "merge_group" && e.MergeGroupHead != "":
		s.Base, s.Head = e.MergeGroupBase, e.MergeGroupHead
		s.From = "merge_group: base_sha..head_sha"
	case e.Name == "workflow_dispatch" && (e.DispatchBase != "" || e.DispatchHead != ""):
		s.Base, s.Head = e.DispatchBase, e.DispatchHead
		s.From = "workflow_dispatch inputs base..head"
	case e.Name == "":
		s.From = "no event: merge-base of HEAD with the default branch..HEAD"
	default:
		s.From = e.Name + ": merge-base of HEAD with the default branch..HEAD"
	}
	if in.Base != "" || in.Head != "" {
		s.Deleted = false
		if in.Base != "" {
			s.Base, s.MergeBase = in.Base, false
		}
		if in.Head != "" {
			s.Head = in.Head
		}
		s.From = "inputs base and head (" + orText(in.Base, "default") + ".." + orText(in.Head, "default") + ")"
	}
	return s
}

// toDefaultBranch reports whether a push moved the default branch (an
// unknown default branch counts as not: the merge-base is the safe range).
func (e *Event) toDefaultBranch() bool {
	return e.DefaultBranch != "" && e.Ref == "refs/heads/"+e.DefaultBranch
}
