// Package analyze turns a change (the old and new versions of each changed file)
// into findings of the six statically visible regression types, and combines the
// findings of each commit of a range with those of its net change.
//
// It reads no repository itself: callers hand it file contents, from git objects
// or from a patch, so the same rules hold for `analyze BASE HEAD` and for
// `analyze --patch`.
package analyze
