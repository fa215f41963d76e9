// Command precisionrun runs `ralph-gate analyze --format json PARENT COMMIT`
// on every commit of the precision corpus (testdata/precision/corpus.tsv),
// each commit alone as a pre-push hook or a pull request would see it, a few
// at a time, and writes what came of it:
//
//	OUT/results.jsonl  one line per commit, in corpus order: exit code, verdict,
//	                   the blocking findings, notes, any error
//	OUT/summary.txt    commits, blocks, block rate and errors per repository,
//	                   per language and overall (also printed)
//	OUT/blocks.tsv     one line per blocking finding, by repository: the list to label
//	OUT/errors.tsv     one line per commit whose run was not a clean pass or block
//
// With -labels (testdata/precision/labels/commits.tsv: what a person read in
// each blocked commit), the summary also compares the blocks with the labels:
// false alarms still blocked, by class, real weakenings no longer blocked,
// blocks no one has read; and blocks.tsv's label column holds the commit's
// label. A labelled real weakening that is not blocked makes precisionrun
// exit 1, as an error does.
//
// An error (exit 2 or 3, a timeout, unreadable JSON, a verdict that disagrees
// with the exit code) is counted and listed, never read as a pass; when there
// is one, precisionrun exits 1 after writing everything.
//
//	go run ./scripts/precisionrun -bin ralph-gate -mirrors DIR -out OUT
//
// scripts/precision-corpus.sh builds the binary and runs this.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	home, err := os.MkdirTemp("", "precisionrun-home")
	if err == nil {
		// The analysis sees no configuration of this machine's user and no
		// CI variables: a fresh HOME and PATH only.
		env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
		err = run(ctx, os.Args[1:], env, os.Stdout, os.Stderr)
		os.RemoveAll(home)
	}
	stop()
	var usage usageError
	switch {
	case err == nil:
		os.Exit(0)
	case errors.As(err, &usage):
		fmt.Fprintln(os.Stderr, "precisionrun: "+err.Error())
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "precisionrun: "+err.Error())
		os.Exit(1)
	}
}

type usageError struct{ error }

// options are the command line's settings.
type options struct {
	bin, mirrors, corpus, out, failOn, labels string
	jobs                                      int
	timeout                                   time.Duration
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("precisionrun", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.bin, "bin", "", "the ralph-gate binary to run (required)")
	fs.StringVar(&o.mirrors, "mirrors", "", "directory of the repositories' git directories: OWNER+NAME/repo or OWNER+NAME.git (required)")
	fs.StringVar(&o.corpus, "corpus", "testdata/precision/corpus.tsv", "the corpus: repo, commit, parent, language, snapshot_head per line")
	fs.StringVar(&o.out, "out", "", "directory for results.jsonl, summary.txt, blocks.tsv and errors.tsv (required)")
	fs.StringVar(&o.labels, "labels", "", "labels of blocked commits (repo, sha, label, classes, note per line) to compare the blocks with")
	fs.StringVar(&o.failOn, "fail-on", "high", "--fail-on for every analysis")
	fs.IntVar(&o.jobs, "jobs", 2, "analyses run at once")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "time limit of one analysis; past it the commit is an error")
	if err := fs.Parse(args); err != nil {
		return o, usageError{err}
	}
	switch {
	case fs.NArg() > 0:
		return o, usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	case o.bin == "" || o.mirrors == "" || o.out == "":
		return o, usageError{errors.New("-bin, -mirrors and -out are required")}
	case o.jobs < 1:
		return o, usageError{errors.New("-jobs must be at least 1")}
	}
	if _, ok := severityRank[o.failOn]; !ok {
		return o, usageError{fmt.Errorf("-fail-on %q: want critical, high, medium, low or none", o.failOn)}
	}
	return o, nil
}

func run(ctx context.Context, args, env []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	f, err := os.Open(o.corpus)
	if err != nil {
		return usageError{err}
	}
	entries, err := ReadCorpus(f, o.corpus)
	f.Close()
	if err != nil {
		return usageError{err}
	}
	var labels map[string]Label
	if o.labels != "" {
		f, err := os.Open(o.labels)
		if err != nil {
			return usageError{err}
		}
		labels, err = ReadLabels(f, o.labels)
		f.Close()
		if err != nil {
			return usageError{err}
		}
	}
	dirs := map[string]string{}
	for _, e := range entries {
		if _, ok := dirs[e.Repo]; ok {
			continue
		}
		d, err := GitDir(o.mirrors, e.Repo)
		if err != nil {
			return usageError{err}
		}
		dirs[e.Repo] = d
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	results := RunAll(ctx, entries, dirs, BinaryRunner(o.bin, o.failOn, env), o.jobs, o.timeout, stderr)
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted: nothing written")
	}
	if err := writeOutputs(o, results, labels, stdout); err != nil {
		return err
	}
	if labels != nil {
		if lost := CompareLabels(results, labels).Lost; len(lost) > 0 {
			return fmt.Errorf("%d labelled real weakenings are not blocked: see %s", len(lost), filepath.Join(o.out, "summary.txt"))
		}
	}
	n := 0
	for _, r := range results {
		if r.Error != "" {
			n++
		}
	}
	if n > 0 {
		return fmt.Errorf("%d of %d commits ended in an error, not a verdict: see %s", n, len(results), filepath.Join(o.out, "errors.tsv"))
	}
	return nil
}

// RunAll analyzes every entry, jobs at a time, and returns the results in the
// entries' order; progress goes to progress every 500 commits.
func RunAll(ctx context.Context, entries []Entry, dirs map[string]string, runner Runner, jobs int, timeout time.Duration, progress io.Writer) []Result {
	results := make([]Result, len(entries))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range jobs {
		wg.Go(func() {
			for i := range next {
				results[i] = Analyze(ctx, runner, dirs[entries[i].Repo], entries[i], timeout)
				mu.Lock()
				done++
				if done%500 == 0 || done == len(entries) {
					fmt.Fprintf(progress, "precisionrun: %d/%d commits\n", done, len(entries))
				}
				mu.Unlock()
			}
		})
	}
	for i := range entries {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func writeOutputs(o options, results []Result, labels map[string]Label, stdout io.Writer) error {
	out := o.out
	write := func(name string, fill func(io.Writer) error) error {
		f, err := os.Create(filepath.Join(out, name))
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		err = fill(w)
		if ferr := w.Flush(); err == nil {
			err = ferr
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", f.Name(), err)
		}
		return nil
	}
	if err := write("results.jsonl", func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, r := range results {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := write("summary.txt", func(w io.Writer) error {
		w = io.MultiWriter(w, stdout)
		if err := WriteSummary(w, results, o.failOn); err != nil {
			return err
		}
		if labels == nil {
			return nil
		}
		return CompareLabels(results, labels).Write(w, o.labels)
	}); err != nil {
		return err
	}
	if err := write("blocks.tsv", func(w io.Writer) error { return WriteBlocks(w, results, labels) }); err != nil {
		return err
	}
	return write("errors.tsv", func(w io.Writer) error { return WriteErrors(w, results) })
}
