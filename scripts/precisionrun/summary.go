package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// tally counts the outcomes of a group of commits (a repository, a language,
// the whole corpus).
type tally struct {
	name                                  string
	commits, blocks, warns, errors, found int
}

func (t *tally) add(r Result) {
	t.commits++
	switch {
	case r.Error != "":
		t.errors++
	case r.Verdict == "block":
		t.blocks++
	case r.Verdict == "warn":
		t.warns++
	}
	t.found += r.Findings
}

// rate is part over whole as a percentage with two decimals.
func rate(part, whole int) string {
	if whole == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 2, 64) + "%"
}

// group tallies results by key, in the order keys first appear.
func group(results []Result, key func(Result) string) []*tally {
	var out []*tally
	by := map[string]*tally{}
	for _, r := range results {
		k := key(r)
		t := by[k]
		if t == nil {
			t = &tally{name: k}
			by[k] = t
			out = append(out, t)
		}
		t.add(r)
	}
	return out
}

// WriteSummary writes the tables a person reads: commits, blocks, block rate,
// warnings and errors per repository, per language and overall; the blocking
// findings by type and rule; every error; the run times.
func WriteSummary(w io.Writer, results []Result, failOn string) error {
	byRepo := group(results, func(r Result) string { return r.Repo })
	byLang := group(results, func(r Result) string { return r.Language })
	all := group(results, func(Result) string { return "total" })
	width := len("repository")
	for _, t := range append(slices.Clone(byRepo), byLang...) {
		width = max(width, len(t.name))
	}
	header := func(first string) {
		fmt.Fprintf(w, "%-*s %8s %7s %10s %6s %7s %9s\n", width, first, "commits", "blocks", "block rate", "warns", "errors", "findings")
	}
	row := func(t *tally) {
		fmt.Fprintf(w, "%-*s %8d %7d %10s %6d %7d %9d\n", width, t.name, t.commits, t.blocks, rate(t.blocks, t.commits), t.warns, t.errors, t.found)
	}
	fmt.Fprintf(w, "ralph-gate analyze --fail-on %s PARENT COMMIT, each commit alone\n\n", failOn)
	header("repository")
	for _, t := range byRepo {
		row(t)
	}
	fmt.Fprintln(w)
	header("language")
	for _, t := range byLang {
		row(t)
	}
	fmt.Fprintln(w)
	row(all[0])

	kinds := map[string]int{}
	commitsOf := map[string]map[string]bool{}
	for _, r := range results {
		for _, f := range r.Blocking {
			k := f.Type + " / " + f.Severity + " / " + cmp.Or(f.Rule, "-")
			kinds[k]++
			if commitsOf[k] == nil {
				commitsOf[k] = map[string]bool{}
			}
			commitsOf[k][r.Repo+" "+r.SHA] = true
		}
	}
	if len(kinds) > 0 {
		fmt.Fprintln(w, "\nblocking findings by type / severity / rule:")
		keys := make([]string, 0, len(kinds))
		for k := range kinds {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(kinds[b], kinds[a]), cmp.Compare(a, b)) })
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  findings\tcommits\tkind")
		for _, k := range keys {
			fmt.Fprintf(tw, "  %d\t%d\t%s\n", kinds[k], len(commitsOf[k]), k)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}

	var errs []Result
	for _, r := range results {
		if r.Error != "" {
			errs = append(errs, r)
		}
	}
	fmt.Fprintf(w, "\nerrors (not a pass; exit 2 input, 3 internal, -1 did not finish): %d\n", len(errs))
	for _, r := range errs {
		fmt.Fprintf(w, "  %s %s: %s\n", r.Repo, r.SHA, r.Error)
	}

	ms := make([]int64, 0, len(results))
	for _, r := range results {
		ms = append(ms, r.MS)
	}
	slices.Sort(ms)
	fmt.Fprintf(w, "\ntime per commit (whole process): p50 %d ms, p95 %d ms, max %d ms\n", pct(ms, 50), pct(ms, 95), pct(ms, 100))
	return nil
}

func pct(sorted []int64, p int) int64 {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p+99)/100 - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// blocksHeader names the columns of WriteBlocks; label is left empty for the
// person who reads each diff.
const blocksHeader = "# repo\tsha\ttype\tseverity\trule\tfile\tline\ttest\tmessage\tid\tsubject\tlabel"

// WriteBlocks writes one line per blocking finding, by repository (in
// case-insensitive order), then in corpus order: the list to label. The label
// column holds the commit's label where labels has one.
func WriteBlocks(w io.Writer, results []Result, labels map[string]Label) error {
	sorted := slices.Clone(results)
	slices.SortStableFunc(sorted, func(a, b Result) int {
		return strings.Compare(strings.ToLower(a.Repo), strings.ToLower(b.Repo))
	})
	if _, err := fmt.Fprintln(w, blocksHeader); err != nil {
		return err
	}
	for _, r := range sorted {
		for _, f := range r.Blocking {
			test := f.Test
			if test == "" && len(f.Tests) > 0 {
				test = strings.Join(f.Tests[:min(len(f.Tests), 5)], "; ")
				if len(f.Tests) > 5 {
					test += fmt.Sprintf("; (+%d more)", len(f.Tests)-5)
				}
			}
			line := ""
			if f.Line > 0 {
				line = strconv.Itoa(f.Line)
			}
			fields := []string{r.Repo, r.SHA, f.Type, f.Severity, f.Rule, f.File, line, test, f.Message, f.ID, r.Subject, labels[r.Repo+" "+r.SHA].Label}
			for i, s := range fields {
				fields[i] = oneCell(s)
			}
			if _, err := fmt.Fprintln(w, strings.Join(fields, "\t")); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteErrors writes one line per commit whose run ended in an error.
func WriteErrors(w io.Writer, results []Result) error {
	if _, err := fmt.Fprintln(w, "# repo\tsha\texit\terror"); err != nil {
		return err
	}
	for _, r := range results {
		if r.Error == "" {
			continue
		}
		if _, err := fmt.Fprintf(w, "%s\t%s\t%d\t%s\n", r.Repo, r.SHA, r.Exit, oneCell(r.Error)); err != nil {
			return err
		}
	}
	return nil
}

// oneCell keeps a value on one TSV cell: tabs and line breaks become spaces.
func oneCell(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\t' || r == '\n' || r == '\r' }), " ")
}
