package collectors

import (
	"math"
	"slices"
	"sort"

	"golang.org/x/tools/cover"
)

// Coverage is what coverage reports say, per file.
type Coverage struct {
	// Files is keyed by the path as the report writes it.
	Files map[string]*FileCoverage
	// Mode is the Go cover profile mode (set, count or atomic); empty for
	// the line-based formats.
	Mode string
	// Stated is the overall percentage as the report itself states it
	// (Cobertura's root line-rate × 100); nil when the format states none,
	// and after merging several reports, whose stated figures cannot be
	// combined.
	Stated *float64
	// StatedBranch is the overall branch coverage as the report states it
	// (Cobertura's root branch-rate × 100), only when the report holds
	// branch data: nil otherwise, and after merging several reports.
	StatedBranch *float64
}

// FileCoverage is the coverage of one source file: statement blocks for Go
// cover profiles, line hit counts and branches for the line-based formats.
type FileCoverage struct {
	Path     string
	blocks   map[blockKey]blockCount
	lines    lineHits
	branches branchHits
}

// LineHit is the hit count of one source line.
type LineHit struct {
	Line int
	Hits int64
}

// Percent is the overall coverage as the formats define it: the stated
// figure when the report states one (Cobertura), otherwise covered units over
// all units, where a unit is a statement for Go cover profiles (what
// `go tool cover -func` prints as "total:") and an instrumented line for LCOV
// and Cobertura (LCOV's hit lines over found lines). ok is false when no unit
// was measured at all.
func (c *Coverage) Percent() (pct float64, ok bool) {
	if c == nil {
		return 0, false
	}
	if c.Stated != nil {
		return *c.Stated, true
	}
	var total, hit int64
	for _, f := range c.Files {
		t, h := f.units()
		total += t
		hit += h
	}
	if total == 0 {
		return 0, false
	}
	return 100 * float64(hit) / float64(total), true
}

// Coverage units: what a percentage counts.
const (
	// UnitStatement: Go cover profiles count statements.
	UnitStatement = "statement"
	// UnitLine: LCOV (DA records) and Cobertura count instrumented lines.
	UnitLine = "line"
	// UnitMixed: merged reports of both kinds (a Go and a JavaScript part).
	UnitMixed = "statement+line"
)

// Unit is what the coverage counts: UnitStatement for Go cover profiles,
// UnitLine for LCOV and Cobertura, UnitMixed when merged reports hold both,
// "" when nothing was measured. Percentages of different units are not
// comparable: 80% of statements and 80% of lines are different amounts of
// tested code.
func (c *Coverage) Unit() string {
	if c == nil {
		return ""
	}
	var stmts, lines bool
	for _, f := range c.Files {
		stmts = stmts || f.blocks != nil
		lines = lines || f.lines.found > 0
	}
	switch {
	case stmts && lines:
		return UnitMixed
	case stmts:
		return UnitStatement
	case lines:
		return UnitLine
	}
	return ""
}

// Paths returns the covered files' paths, sorted.
func (c *Coverage) Paths() []string {
	if c == nil {
		return nil
	}
	ps := make([]string, 0, len(c.Files))
	for p := range c.Files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

func (c *Coverage) file(path string) *FileCoverage {
	if c.Files == nil {
		c.Files = make(map[string]*FileCoverage)
	}
	f := c.Files[path]
	if f == nil {
		f = &FileCoverage{Path: path}
		c.Files[path] = f
	}
	return f
}

// Percent is the file's coverage: statements for Go, lines otherwise; ok is
// false when the file has no measured unit.
func (f *FileCoverage) Percent() (pct float64, ok bool) {
	total, hit := f.units()
	if total == 0 {
		return 0, false
	}
	return 100 * float64(hit) / float64(total), true
}

// Units returns the file's measured units and the covered ones: statements
// for Go cover profiles, instrumented lines otherwise.
func (f *FileCoverage) Units() (total, covered int64) { return f.units() }

func (f *FileCoverage) units() (total, hit int64) {
	if f.blocks != nil {
		return f.Statements()
	}
	found, h := f.Lines()
	return int64(found), int64(h)
}

// Statements returns the number of statements and of covered statements (Go
// cover profiles; zero for the line-based formats).
func (f *FileCoverage) Statements() (total, hit int64) {
	for _, b := range f.blocks {
		total += int64(b.numStmt)
		if b.count > 0 {
			hit += int64(b.numStmt)
		}
	}
	return total, hit
}

// Lines returns the number of instrumented lines and of lines hit at least
// once (LCOV's LF and LH as computed from DA records).
func (f *FileCoverage) Lines() (found, hit int) { return f.lines.found, f.lines.hit }

// LineHits returns the hit count of every instrumented line, sorted by line.
// Counts saturate at 2^32-2.
func (f *FileCoverage) LineHits() []LineHit { return f.lines.all() }

// Hits returns the hit count of a line; ok is false when the line is not
// instrumented.
func (f *FileCoverage) Hits(line int) (hits int64, ok bool) { return f.lines.get(line) }

// Blocks returns the Go cover profile blocks of the file, sorted by position,
// in golang.org/x/tools/cover's form.
func (f *FileCoverage) Blocks() []cover.ProfileBlock {
	bs := make([]cover.ProfileBlock, 0, len(f.blocks))
	for k, v := range f.blocks {
		bs = append(bs, cover.ProfileBlock{
			StartLine: int(k.startLine), StartCol: int(k.startCol),
			EndLine: int(k.endLine), EndCol: int(k.endCol),
			NumStmt: int(v.numStmt), Count: int(min(v.count, math.MaxInt)),
		})
	}
	sort.Slice(bs, func(i, j int) bool {
		a, b := bs[i], bs[j]
		if a.StartLine != b.StartLine {
			return a.StartLine < b.StartLine
		}
		if a.StartCol != b.StartCol {
			return a.StartCol < b.StartCol
		}
		if a.EndLine != b.EndLine {
			return a.EndLine < b.EndLine
		}
		return a.EndCol < b.EndCol
	})
	return bs
}

// blockKey is a Go cover block's position.
type blockKey struct {
	startLine, startCol, endLine, endCol int32
}

type blockCount struct {
	numStmt int32
	count   int64
}

// addBlock merges a block the way go tool cover merges duplicate blocks:
// set mode ORs, count and atomic sum. It reports false when the block
// exists with a different statement count (profiles of different sources).
func (f *FileCoverage) addBlock(k blockKey, numStmt int32, count int64, set bool) bool {
	if f.blocks == nil {
		f.blocks = make(map[blockKey]blockCount)
	}
	old, ok := f.blocks[k]
	if !ok {
		f.blocks[k] = blockCount{numStmt: numStmt, count: count}
		return true
	}
	same := old.numStmt == numStmt
	old.numStmt = max(old.numStmt, numStmt)
	if set {
		old.count = max(old.count, count)
	} else {
		old.count = satAdd(old.count, count)
	}
	f.blocks[k] = old
	return same
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// lineHits stores hit counts by line number compactly: densely for the
// small, contiguous line numbers of real files (4 bytes a line), sparsely for
// line numbers far beyond the lines seen so far.
type lineHits struct {
	dense  []uint32 // dense[n-1] is the hit count of line n plus one; 0: no record
	sparse map[int]uint64
	found  int // lines with a record
	hit    int // lines with a record and hits > 0
}

const maxDenseHits = math.MaxUint32 - 1

// add records hits for a line: summed with an earlier record of the same
// line when sum is set, else the larger count is kept.
func (l *lineHits) add(line int, hits int64, sum bool) {
	if line < 1 || hits < 0 {
		return
	}
	if v, ok := l.sparse[line]; ok {
		n := combine(int64(min(v, math.MaxInt64)), hits, sum)
		l.sparse[line] = uint64(min(n, maxDenseHits))
		if v == 0 && n > 0 {
			l.hit++
		}
		return
	}
	if line > len(l.dense) {
		if line > 4096+4*l.found {
			if l.sparse == nil {
				l.sparse = make(map[int]uint64)
			}
			l.sparse[line] = uint64(min(hits, maxDenseHits))
			l.found++
			if hits > 0 {
				l.hit++
			}
			return
		}
		if line > cap(l.dense) {
			grown := make([]uint32, line, max(line, 2*cap(l.dense)))
			copy(grown, l.dense)
			l.dense = grown
		} else {
			l.dense = l.dense[:line]
		}
	}
	v := l.dense[line-1]
	if v == 0 {
		l.found++
		if hits > 0 {
			l.hit++
		}
		l.dense[line-1] = uint32(min(hits, maxDenseHits)) + 1
		return
	}
	old := int64(v - 1)
	n := combine(old, hits, sum)
	if old == 0 && n > 0 {
		l.hit++
	}
	l.dense[line-1] = uint32(min(n, maxDenseHits)) + 1
}

// compact drops the spare capacity that growing left, once a file's record
// is complete.
func (l *lineHits) compact() {
	if cap(l.dense) > len(l.dense)+len(l.dense)/8 {
		l.dense = append([]uint32(nil), l.dense...)
	}
}

func combine(old, hits int64, sum bool) int64 {
	if sum {
		return satAdd(old, hits)
	}
	return max(old, hits)
}

func (l *lineHits) get(line int) (int64, bool) {
	if line >= 1 && line <= len(l.dense) && l.dense[line-1] != 0 {
		return int64(l.dense[line-1] - 1), true
	}
	v, ok := l.sparse[line]
	return int64(min(v, math.MaxInt64)), ok
}

func (l *lineHits) all() []LineHit {
	out := make([]LineHit, 0, l.found)
	for i, v := range l.dense {
		if v != 0 {
			out = append(out, LineHit{Line: i + 1, Hits: int64(v - 1)})
		}
	}
	if len(l.sparse) > 0 {
		for n, v := range l.sparse {
			out = append(out, LineHit{Line: n, Hits: int64(min(v, math.MaxInt64))})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	}
	return out
}

// SplitLines sorts the given lines of the file into those tests covered and
// those the report instruments but no test ran; lines the report does not
// instrument (comments, blank lines, declarations) are in neither. For LCOV
// and Cobertura a line is what their line records say; for Go cover profiles
// a line is executable when a statement block spans it and covered when any
// block on it ran (what gocover-cobertura and diff-cover make of a profile).
// This is changed-line coverage's measure: the share of a change's lines
// that tests ran. Both results are sorted; lines may come in any order.
func (f *FileCoverage) SplitLines(lines []int) (covered, uncovered []int) {
	if f == nil || len(lines) == 0 {
		return nil, nil
	}
	q := append([]int(nil), lines...)
	sort.Ints(q)
	q = slices.Compact(q)
	state := make([]int8, len(q)) // 0 not executable, 1 uncovered, 2 covered
	for k, v := range f.blocks {
		if v.numStmt == 0 {
			continue
		}
		mark := int8(1)
		if v.count > 0 {
			mark = 2
		}
		for i := sort.SearchInts(q, int(k.startLine)); i < len(q) && q[i] <= int(k.endLine); i++ {
			state[i] = max(state[i], mark)
		}
	}
	for i, l := range q {
		if h, ok := f.lines.get(l); ok {
			mark := int8(1)
			if h > 0 {
				mark = 2
			}
			state[i] = max(state[i], mark)
		}
	}
	for i, l := range q {
		switch state[i] {
		case 2:
			covered = append(covered, l)
		case 1:
			uncovered = append(uncovered, l)
		}
	}
	return covered, uncovered
}
