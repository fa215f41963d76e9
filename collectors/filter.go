package collectors

import "path"

// Filter returns the part of r that belongs to the units keep accepts, where
// a unit is what a Go test run names a package by: a test's suite (its
// package's import path), the directory of a covered file (the package of a
// cover profile's import-path file names), a build failure's or an integrity
// problem's package. Diagnostics (type checks, linters) are not split by
// package and are left out. The result shares r's per-file coverage, which
// neither may change afterwards.
func (r *Result) Filter(keep func(unit string) bool) *Result {
	if r == nil {
		return nil
	}
	out := &Result{Sources: append([]string(nil), r.Sources...)}
	if r.Tests != nil {
		out.Tests = &Tests{}
		for t := range r.Tests.All() {
			if keep(t.Suite) {
				out.Tests.Add(t)
			}
		}
	}
	if r.Coverage != nil {
		out.Coverage = &Coverage{Mode: r.Coverage.Mode, Files: map[string]*FileCoverage{}}
		for p, f := range r.Coverage.Files {
			if keep(path.Dir(p)) {
				out.Coverage.Files[p] = f
			}
		}
	}
	for _, b := range r.BuildFailures {
		if keep(b.Package) {
			out.BuildFailures = append(out.BuildFailures, b)
		}
	}
	for _, p := range r.Integrity {
		if keep(p.Package) {
			out.Integrity = append(out.Integrity, p)
		}
	}
	return out
}
