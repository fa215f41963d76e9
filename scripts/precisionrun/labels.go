package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Label is a person's reading of one blocked commit of the corpus, a line of
// testdata/precision/labels/commits.tsv:
//
//	# repo	sha	label	classes	note
//	spf13/cobra	0123...	false_alarm	identity	TestX was renamed TestY with the same body.
//
// label is false_alarm (the analysis misread the change), legit_true (a true
// finding on a legitimate change: a feature removed with its tests, a
// revert) or real_weakening (the change does weaken the checks); classes
// names the false-alarm classes or the kind of legitimate change, comma
// separated (it may be empty).
type Label struct {
	Repo, SHA, Label string
	Classes          []string
	Note             string
}

// labelKinds are the labels a line may carry, in report order.
var labelKinds = []string{"false_alarm", "legit_true", "real_weakening"}

// ReadLabels reads a labels file into a map keyed by "repo sha".
func ReadLabels(r io.Reader, name string) (map[string]Label, error) {
	out := map[string]Label{}
	err := readTSV(r, name, "repo, sha, label, classes, note", func(n int, f []string) error {
		l := Label{Repo: f[0], SHA: f[1], Label: f[2], Note: f[4]}
		if !isCommitID(l.SHA) {
			return fmt.Errorf("%s:%d: %q is not a 40-hex commit id", name, n, l.SHA)
		}
		if !slices.Contains(labelKinds, l.Label) {
			return fmt.Errorf("%s:%d: label %q: want one of %s", name, n, l.Label, strings.Join(labelKinds, ", "))
		}
		for _, c := range strings.Split(f[3], ",") {
			if c = strings.TrimSpace(c); c != "" {
				l.Classes = append(l.Classes, c)
			}
		}
		k := l.Repo + " " + l.SHA
		if _, dup := out[k]; dup {
			return fmt.Errorf("%s:%d: %s %s is labelled twice", name, n, l.Repo, l.SHA)
		}
		out[k] = l
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// LabelReport is how a run's blocks compare with the labels.
type LabelReport struct {
	Commits int
	Blocked int
	// Now counts, by label, the labelled commits blocked in this run; Read
	// counts the labelled commits of the corpus.
	Now, Read map[string]int
	// ClassNow and ClassRead are Now and Read of the false alarms by class.
	ClassNow, ClassRead map[string]int
	// Unread are the blocked commits no one has labelled.
	Unread []Result
	// Lost are the labelled real weakenings this run does not block; Errored
	// the labelled commits whose run ended in an error (neither a pass nor a
	// block).
	Lost, Errored []Result
}

// CompareLabels reads results against labels (only the labels of commits in
// results count).
func CompareLabels(results []Result, labels map[string]Label) LabelReport {
	rep := LabelReport{Commits: len(results), Now: map[string]int{}, Read: map[string]int{}, ClassNow: map[string]int{}, ClassRead: map[string]int{}}
	for _, r := range results {
		l, labelled := labels[r.Repo+" "+r.SHA]
		blocked := r.Error == "" && r.Verdict == "block"
		if blocked {
			rep.Blocked++
		}
		if !labelled {
			if blocked {
				rep.Unread = append(rep.Unread, r)
			}
			continue
		}
		rep.Read[l.Label]++
		if l.Label == "false_alarm" {
			for _, c := range l.Classes {
				rep.ClassRead[c]++
			}
		}
		switch {
		case r.Error != "":
			rep.Errored = append(rep.Errored, r)
		case blocked:
			rep.Now[l.Label]++
			if l.Label == "false_alarm" {
				for _, c := range l.Classes {
					rep.ClassNow[c]++
				}
			}
		case l.Label == "real_weakening":
			rep.Lost = append(rep.Lost, r)
		}
	}
	return rep
}

// Write writes the report as a section of summary.txt.
func (rep LabelReport) Write(w io.Writer, labelsFile string) error {
	read := 0
	for _, n := range rep.Read {
		read += n
	}
	fmt.Fprintf(w, "\nagainst the labels (%s: %d commits read):\n", labelsFile, read)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  blocked now\tlabelled\tlabel\t")
	for _, k := range labelKinds {
		fmt.Fprintf(tw, "  %d\t%d\t%s\t%s\n", rep.Now[k], rep.Read[k], k, rate(rep.Now[k], rep.Commits)+" of the commits")
	}
	fmt.Fprintf(tw, "  %d\t-\tnot labelled\tblocks no one has read yet: read and label them\n", len(rep.Unread))
	if err := tw.Flush(); err != nil {
		return err
	}
	fa := rep.Now["false_alarm"]
	fmt.Fprintf(w, "  false alarms: %d labelled (%s of %d commits; target 0.30%%), at most %d (%s) counting every unread block as one\n",
		fa, rate(fa, rep.Commits), rep.Commits, fa+len(rep.Unread), rate(fa+len(rep.Unread), rep.Commits))
	fmt.Fprintf(w, "  all blocks: %d (%s; target 1.50%%)\n", rep.Blocked, rate(rep.Blocked, rep.Commits))
	fmt.Fprintf(w, "  labelled real weakenings not blocked: %d (target 0)\n", len(rep.Lost))
	for _, r := range rep.Lost {
		fmt.Fprintf(w, "    %s %s: %s\n", r.Repo, r.SHA, cmp.Or(r.Verdict, "?"))
	}
	if len(rep.Errored) > 0 {
		fmt.Fprintf(w, "  labelled commits whose run ended in an error: %d\n", len(rep.Errored))
	}
	if len(rep.ClassRead) > 0 {
		fmt.Fprintln(w, "\nfalse alarms by class (blocked now / labelled):")
		classes := make([]string, 0, len(rep.ClassRead))
		for c := range rep.ClassRead {
			classes = append(classes, c)
		}
		slices.SortFunc(classes, func(a, b string) int {
			return cmp.Or(cmp.Compare(rep.ClassRead[b], rep.ClassRead[a]), cmp.Compare(a, b))
		})
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, c := range classes {
			fmt.Fprintf(tw, "  %d / %d\t%s\n", rep.ClassNow[c], rep.ClassRead[c], c)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(rep.Unread) > 0 {
		fmt.Fprintln(w, "\nblocked, not labelled:")
		for _, r := range rep.Unread {
			fmt.Fprintf(w, "  %s %s %s\n", r.Repo, r.SHA, oneCell(r.Subject))
		}
	}
	return nil
}
