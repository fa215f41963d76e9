// Package ci reads a repository's CI: what its workflows, Makefiles,
// package scripts and shell scripts run, and when.
//
// ghif.go evaluates a GitHub Actions `if:` for a pull_request run
// (OffOnPullRequest): a job or step whose condition is false there gates
// nothing on a pull request.
package ci
