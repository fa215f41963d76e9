package config

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// InvalidError is a configuration file that does not parse or validate: bad
// input the user fixes, as opposed to an error reading the repository.
type InvalidError struct{ Err error }

func (e *InvalidError) Error() string { return e.Err.Error() }
func (e *InvalidError) Unwrap() error { return e.Err }

// AtCommit reads FileName from a commit's tree; an absent file gives the
// default configuration. label names the commit in messages ("BASE", "the
// loop's baseline"). A malformed file gives an *InvalidError naming the file,
// the commit and the line.
func AtCommit(repo *gitrepo.Repo, at plumbing.Hash, label string) (*Config, error) {
	data, err := repo.ReadFile(at, FileName)
	if errors.Is(err, gitrepo.ErrNotFound) {
		return Default(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", FileName, at.String()[:12], err)
	}
	cfg, err := Parse(fmt.Sprintf("%s (at %s %s)", FileName, label, at.String()[:12]), data)
	if err != nil {
		return nil, &InvalidError{Err: err}
	}
	return cfg, nil
}
