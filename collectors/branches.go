package collectors

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Branch coverage: which outcomes of a decision (the two ways out of an if,
// each case of a switch) the tests took. Only LCOV (BRDA records) and
// Cobertura (condition-coverage on a line) carry it; Go cover profiles and
// the other formats have none, which BranchPercent reports as ok == false,
// never as 0%.

// branchRec is one LCOV branch (a BRDA record): its line, its block and
// branch labels, and its taken count (saturating). A label is its number
// when it is one, as lcov and the JavaScript tools write them ("0", "1"),
// else -(1+i) for the file's names[i] (lcov 2 writes an expression for the
// branch, and an "e" before the block of an exception branch).
type branchRec struct {
	line, block, branch int32
	taken               uint32
}

// condCount is a Cobertura line's condition-coverage="50% (1/2)": the
// conditions covered, and all of them.
type condCount struct {
	covered, valid int32
}

// branchHits holds a file's branch data: LCOV's branches, and Cobertura's
// condition counts by line. The two are kept apart because they merge
// differently: an LCOV branch is one outcome, so shards sum its counts; a
// Cobertura line says only how many of its conditions ran, not which, so
// two reports of the same line keep the larger counts (what their union
// proves at least).
//
// The LCOV branches are packed: sorted by line, block and branch, one
// record each, as varints of the line's distance from the previous record's
// line, the block and branch labels (zigzag) and the taken count, which is
// about 4 bytes a branch where a struct would take 16: a 100 MB tracefile
// of the JavaScript tools holds nearly two million branches.
type branchHits struct {
	packed []byte
	n      int      // records in packed
	names  []string // labels that are not numbers
	ids    map[string]int32
	conds  map[int32]condCount
}

// each calls fn with every LCOV branch, in order.
func (b *branchHits) each(fn func(branchRec)) {
	p := b.packed
	var line int64
	for len(p) > 0 {
		d, k := binary.Uvarint(p)
		p = p[k:]
		block, k2 := binary.Varint(p)
		p = p[k2:]
		branch, k3 := binary.Varint(p)
		p = p[k3:]
		taken, k4 := binary.Uvarint(p)
		p = p[k4:]
		line += int64(d)
		fn(branchRec{line: int32(line), block: int32(block), branch: int32(branch), taken: uint32(taken)})
	}
}

// unpack returns the LCOV branches.
func (b *branchHits) unpack() []branchRec {
	out := make([]branchRec, 0, b.n)
	b.each(func(r branchRec) { out = append(out, r) })
	return out
}

// pack stores sorted, unique records.
func (b *branchHits) pack(rs []branchRec) {
	buf := make([]byte, 0, 4*len(rs))
	var prev int32
	for _, r := range rs {
		buf = binary.AppendUvarint(buf, uint64(r.line-prev))
		buf = binary.AppendVarint(buf, int64(r.block))
		buf = binary.AppendVarint(buf, int64(r.branch))
		buf = binary.AppendUvarint(buf, uint64(r.taken))
		prev = r.line
	}
	if cap(buf) > len(buf)+len(buf)/8 {
		buf = append([]byte(nil), buf...)
	}
	b.packed, b.n = buf, len(rs)
}

// maxConditions bounds a Cobertura line's condition count: a line holds at
// most a switch's cases, and a count beyond this is not a report of code.
const maxConditions = 1 << 20

// label returns the id of a block or branch label.
func (b *branchHits) label(s []byte) int32 {
	if n, ok := smallNumber(s); ok {
		return n
	}
	if id, ok := b.ids[string(s)]; ok {
		return id
	}
	if b.ids == nil {
		b.ids = make(map[string]int32)
	}
	b.names = append(b.names, string(s))
	id := -int32(len(b.names))
	b.ids[string(s)] = id
	return id
}

func (b *branchHits) labelText(id int32) string {
	if id >= 0 {
		return strconv.Itoa(int(id))
	}
	return b.names[-id-1]
}

// smallNumber reads a label written as a decimal number without leading
// zeros ("0", "17") that fits an int32; "007" and "e0" are names.
func smallNumber(s []byte) (int32, bool) {
	if len(s) == 0 || len(s) > 9 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	var n int32
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int32(c-'0')
	}
	return n, true
}

// rec makes the record of an LCOV branch, its labels named in b.
func (b *branchHits) rec(line int64, block, branch []byte, taken int64) branchRec {
	return branchRec{line: clampLine(line), block: b.label(block), branch: b.label(branch), taken: uint32(min(taken, math.MaxUint32))}
}

// addRecs adds records made by b.rec, summing the taken counts of a branch
// recorded twice (a file in several records of a tracefile, one per test
// name, or in several reports). rs is sorted in place.
func (b *branchHits) addRecs(rs []branchRec) {
	if len(rs) == 0 {
		return
	}
	all := rs
	if b.n > 0 {
		all = append(b.unpack(), rs...)
	}
	sorted := true
	for i := 1; i < len(all) && sorted; i++ {
		sorted = cmpRec(all[i-1], all[i], b) < 0
	}
	if sorted {
		b.pack(all)
		return
	}
	slices.SortStableFunc(all, func(x, y branchRec) int { return cmpRec(x, y, b) })
	out := all[:0]
	for _, r := range all {
		if n := len(out); n > 0 && cmpRec(out[n-1], r, b) == 0 {
			out[n-1].taken = uint32(min(uint64(out[n-1].taken)+uint64(r.taken), math.MaxUint32))
			continue
		}
		out = append(out, r)
	}
	b.pack(out)
}

// cmpRec orders branches by line, block and branch; b holds their names.
func cmpRec(x, y branchRec, b *branchHits) int {
	if c := cmp.Compare(x.line, y.line); c != 0 {
		return c
	}
	if c := cmpLabel(x.block, y.block, b); c != 0 {
		return c
	}
	return cmpLabel(x.branch, y.branch, b)
}

// cmpLabel orders numbers before names, numbers by value, names as text.
func cmpLabel(x, y int32, b *branchHits) int {
	switch {
	case x >= 0 && y >= 0:
		return cmp.Compare(x, y)
	case x >= 0:
		return -1
	case y >= 0:
		return 1
	}
	return strings.Compare(b.names[-x-1], b.names[-y-1])
}

// addConds records a Cobertura line's condition counts, keeping the larger
// counts of a line reported twice.
func (b *branchHits) addConds(line int32, covered, valid int32) {
	if b.conds == nil {
		b.conds = make(map[int32]condCount)
	}
	old := b.conds[line]
	b.conds[line] = condCount{covered: max(old.covered, covered), valid: max(old.valid, valid)}
}

func (b *branchHits) counts() (found, hit int64) {
	b.each(func(r branchRec) {
		found++
		if r.taken > 0 {
			hit++
		}
	})
	for _, c := range b.conds {
		found += int64(c.valid)
		hit += int64(c.covered)
	}
	return found, hit
}

// BranchHit is one LCOV branch: BRDA:<Line>,<Block>,<Branch>,<Taken>, with
// a taken count of "-" (the block never ran) read as 0; counts saturate at
// 2^32-1.
type BranchHit struct {
	Line          int
	Block, Branch string
	Taken         int64
}

// LineConditions is one Cobertura line's condition coverage:
// condition-coverage="50% (1/2)" is Covered 1 of Valid 2.
type LineConditions struct {
	Line           int
	Covered, Valid int
}

// BranchPercent is the overall branch coverage: the stated figure when the
// report states one (Cobertura's root branch-rate, when the report holds
// branch data), otherwise the branches taken over all branches, where a
// branch is an LCOV BRDA record or one of a Cobertura line's conditions. ok
// is false when no report measured a branch: Go cover profiles have no
// branch data, and neither have LCOV or Cobertura files written without it
// (coverage.py without --branch writes branch-rate="0" and
// branches-valid="0"), so "no data" is never read as 0%.
func (c *Coverage) BranchPercent() (pct float64, ok bool) {
	if c == nil {
		return 0, false
	}
	if c.StatedBranch != nil {
		return *c.StatedBranch, true
	}
	found, hit := c.Branches()
	if found == 0 {
		return 0, false
	}
	return 100 * float64(hit) / float64(found), true
}

// Branches returns the branches measured over all files and those taken at
// least once.
func (c *Coverage) Branches() (found, hit int64) {
	if c == nil {
		return 0, 0
	}
	for _, f := range c.Files {
		fo, h := f.Branches()
		found += fo
		hit += h
	}
	return found, hit
}

// Branches returns the file's branches and those taken at least once: LCOV
// BRDA records computed as lcov computes BRF and BRH, plus Cobertura's
// conditions. Both are zero for a file without branch data.
func (f *FileCoverage) Branches() (found, hit int64) { return f.branches.counts() }

// BranchHits returns the file's LCOV branches, sorted by line, block and
// branch (numbered labels by number, before named ones).
func (f *FileCoverage) BranchHits() []BranchHit {
	b := &f.branches
	out := make([]BranchHit, 0, b.n)
	b.each(func(r branchRec) {
		out = append(out, BranchHit{Line: int(r.line), Block: b.labelText(r.block), Branch: b.labelText(r.branch), Taken: int64(r.taken)})
	})
	return out
}

// Conditions returns the file's Cobertura condition counts, sorted by line.
func (f *FileCoverage) Conditions() []LineConditions {
	out := make([]LineConditions, 0, len(f.branches.conds))
	for l, c := range f.branches.conds {
		out = append(out, LineConditions{Line: int(l), Covered: int(c.covered), Valid: int(c.valid)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// mergeBranches adds src's branches to dst: LCOV taken counts are summed,
// Cobertura conditions keep the larger counts.
func mergeBranches(dst, src *branchHits) {
	rs := make([]branchRec, 0, src.n)
	src.each(func(r branchRec) {
		rs = append(rs, dst.rec(int64(r.line), []byte(src.labelText(r.block)), []byte(src.labelText(r.branch)), int64(r.taken)))
	})
	dst.addRecs(rs)
	for l, c := range src.conds {
		dst.addConds(l, c.covered, c.valid)
	}
}

// clampLine narrows a positive line number to the int32 branch keys hold.
func clampLine(n int64) int32 { return int32(min(n, math.MaxInt32)) }
