package collectors

// Merge combines the results of several reports, such as the shards of a CI
// matrix or the reports of several tools, into a new Result; the inputs are
// not changed and nil inputs are ignored. A measurement is nil in the merged
// result only when it is nil in every input.
//
// Tests are merged by id, one entry per id, so an id reported twice is
// counted once. Matrix shards normally run disjoint tests; when the same id
// appears more than once (retries, -count=N, shards that overlap) the worst
// outcome wins (error, then failed, then passed, then skipped) with its
// message: a retry must not hide a failure from a regression gate. Runs sums
// the reports of the id and Flaky marks an id that both passed and failed.
//
// Coverage is merged per file and line: hit counts are summed, so a line hit
// in any shard is hit. Go cover blocks are merged as go tool cover merges
// duplicate blocks (set mode keeps the larger count, count and atomic sum);
// two profiles of different source versions (one block, two statement
// counts) keep the larger statement count. LCOV branches are merged by
// line, block and branch, their taken counts summed; Cobertura's per-line
// condition counts keep the larger counts, since they do not say which
// conditions ran. The merged Stated and StatedBranch percentages are kept
// only when exactly one input has coverage: stated figures of several
// reports cannot be combined, so the merged percentages are computed from
// the merged lines and branches.
//
// Diagnostics are summed; build failures are concatenated, one per package.
func Merge(results ...*Result) *Result {
	out := &Result{}
	coverageInputs := 0
	seenBuild := make(map[string]bool)
	for _, r := range results {
		if r == nil {
			continue
		}
		out.Sources = append(out.Sources, r.Sources...)
		if r.Tests != nil && out.Tests == nil {
			out.Tests = &Tests{}
		}
		for t := range r.Tests.All() {
			out.Tests.Add(t)
		}
		if r.Coverage != nil {
			coverageInputs++
			if out.Coverage == nil {
				out.Coverage = &Coverage{Stated: r.Coverage.Stated, StatedBranch: r.Coverage.StatedBranch}
			}
			mergeCoverage(out.Coverage, r.Coverage)
		}
		out.TypeCheck = mergeDiagnostics(out.TypeCheck, r.TypeCheck)
		out.Lint = mergeDiagnostics(out.Lint, r.Lint)
		for _, b := range r.BuildFailures {
			if !seenBuild[b.ImportPath+"\x00"+b.Package] {
				seenBuild[b.ImportPath+"\x00"+b.Package] = true
				out.BuildFailures = append(out.BuildFailures, b)
			}
		}
		out.Integrity = append(out.Integrity, r.Integrity...)
	}
	if coverageInputs > 1 {
		out.Coverage.Stated, out.Coverage.StatedBranch = nil, nil
	}
	if out.Coverage != nil {
		for _, p := range []**float64{&out.Coverage.Stated, &out.Coverage.StatedBranch} {
			if *p != nil {
				v := **p
				*p = &v
			}
		}
	}
	return out
}

func mergeCoverage(dst, src *Coverage) {
	switch {
	case dst.Mode == "":
		dst.Mode = src.Mode
	case src.Mode != "" && src.Mode != dst.Mode:
		// set and count profiles summed: the counts are no longer 0/1.
		dst.Mode = "count"
	}
	set := dst.Mode == "set"
	for path, sf := range src.Files {
		df := dst.file(path)
		for k, b := range sf.blocks {
			df.addBlock(k, b.numStmt, b.count, set)
		}
		for i, v := range sf.lines.dense {
			if v != 0 {
				df.lines.add(i+1, int64(v-1), true)
			}
		}
		for n, v := range sf.lines.sparse {
			df.lines.add(n, int64(min(v, maxDenseHits)), true)
		}
		mergeBranches(&df.branches, &sf.branches)
	}
}

func mergeDiagnostics(dst, src *Diagnostics) *Diagnostics {
	if src == nil {
		return dst
	}
	if dst == nil {
		dst = &Diagnostics{}
	}
	dst.Errors += src.Errors
	dst.Warnings += src.Warnings
	for rule, c := range src.Rules {
		if dst.Rules == nil {
			dst.Rules = make(map[string]RuleCount)
		}
		d := dst.Rules[rule]
		d.Errors += c.Errors
		d.Warnings += c.Warnings
		dst.Rules[rule] = d
	}
	return dst
}
