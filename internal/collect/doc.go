// Package collect measures one commit of a repository: it detects the
// project's toolchains from the commit's tree, checks the commit out in a
// temporary git worktree, runs the collectors (test runners, coverage, type
// checkers, linters) there, reads their reports with the collectors package,
// and caches the resulting Measurement under the repository's git directory.
//
// The user's checkout is never touched: the commit is read through gitrepo for
// detection and tree statistics, and checked out with `git worktree add
// --detach` into a temporary directory, with the repository's hooks disabled.
// The worktree is removed after the run whatever happens, a cancelled context
// included (removal uses a fresh context).
//
// # Collectors
//
// A collector is a config.Collector: an argv run without a shell (unless
// Shell is set), extra environment, a timeout (default 30m) and the reports
// it writes. The placeholder {out} (OutDir) in argv, env values and report
// paths is replaced by a fresh directory outside the checkout, so that
// detected commands do not depend on a temporary path (they are part of the
// cache key) and report files never dirty the checkout. A collector without
// reports is a setup step (npm ci): its non-zero exit is an error. A
// collector with reports may exit non-zero (tests failed, lint found
// problems): what counts is that every report exists and parses; a missing or
// malformed report is an error naming the collector and the file, never
// "zero tests".
//
// # Tree statistics
//
// file_count and lines_of_code count the source files of the known
// languages (Go, JavaScript, TypeScript, Python, Java, Rust) in the commit's
// tree, outside vendored, node_modules, third_party and testdata folders, and
// their non-blank lines. complexity is the number of decision points over the
// same files: the keywords if, for, while, case, catch (Python: if, elif,
// for, while, except, case, and, or) and the operators && and ||, found by a
// scan that skips comments and string literals (including raw strings, Python
// triple-quoted strings and template literals, whose ${} parts are skipped
// too). It is McCabe's complexity minus one per function, summed: a trend
// figure, not a per-function report. The scan has no tokenizer: a JavaScript
// regular expression literal containing a quote or a keyword, or a Rust
// lifetime followed on the same line by a quote, can miscount.
//
// # Cache
//
// A Measurement is stored as JSON under <git-common-dir>/ralph-gate/cache/,
// keyed by sha256 of the tree hash, the collectors' specs and the versions of
// the tools they invoke (CacheKey); linked worktrees share it. Writes are
// atomic (temporary file, fsync, rename), so concurrent runs are safe; an
// entry that does not decode is ignored and rewritten.
package collect
