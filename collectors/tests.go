package collectors

import (
	"errors"
	"hash/maphash"
	"iter"
	"math"
	"sort"
	"strings"
)

// Tests holds test results, one per test id. It stores them compactly (24
// bytes a test plus the part of its name it does not share with the test
// before it, with no pointers for the garbage collector to follow), so that
// reports with a million test cases parse within a small memory budget; a
// Test is built when asked for.
//
// The zero value is an empty set, ready to use; a nil *Tests reads as empty.
// Reading methods may be called concurrently; Add may not.
type Tests struct {
	seed    maphash.Seed
	recs    [][]testRec // chunks of recChunk records
	n       int
	table   []uint32 // open addressing: hash tag<<slotBits | record number + 1; 0 is empty
	names   [][]byte // arena chunks holding the names' unshared suffixes
	suites  interner
	files   interner
	msgs    []string
	last    []byte // the full name of the last record, for prefix sharing
	scratch []byte // a name being rebuilt during Add
}

const (
	recChunk    = 1 << 13
	arenaChunk  = 1 << 20
	maxChunks   = 1 << 12 // arena positions are chunk<<20 | offset in 32 bits
	maxRuns     = math.MaxUint16
	maxShared   = math.MaxUint8
	restartEach = 16 // every 16th name is stored whole, bounding a rebuild
	slotBits    = 26 // a table slot holds a record number below 2^26 ...
	maxTests    = 1<<slotBits - 1
	tagShift    = 64 - (32 - slotBits) // ... and the top 6 bits of its hash
)

// testRec is one test, in 24 bytes. Its name is the first shared bytes of the
// previous record's name followed by its own suffix in the arena.
type testRec struct {
	name    uint32 // arena position of the suffix: chunk<<20 | offset
	nameLen uint32 // low 30 bits: suffix length; top 2 bits: separator
	suite   uint32 // interned suite
	file    uint32 // interned file
	msg     uint32 // message index + 1; 0: none
	runs    uint16 // saturates
	shared  uint8  // bytes shared with the previous record's name
	state   uint8  // outcome in the low bits, stateFlaky
}

const stateFlaky = 1 << 7

func (r *testRec) outcome() Outcome     { return Outcome(r.state &^ stateFlaky) }
func (r *testRec) flaky() bool          { return r.state&stateFlaky != 0 }
func (r *testRec) sep() uint8           { return uint8(r.nameLen >> 30) }
func (r *testRec) suffixLen() int       { return int(r.nameLen & (1<<30 - 1)) }
func (r *testRec) nameLength() int      { return int(r.shared) + r.suffixLen() }
func (r *testRec) setOutcome(o Outcome) { r.state = r.state&stateFlaky | uint8(o) }

// Separators between a test's suite and name in its id.
const (
	sepNone  uint8 = 0 // the id is the name
	sepDot   uint8 = 1 // suite.name
	sepArrow uint8 = 2 // suite > name
)

var sepText = [...]string{"", ".", " > ", ""}

var errTooManyTests = errors.New("too many tests (more than 2^26 test ids or 4 GiB of test names)")

type interner struct {
	list  []string
	index map[string]uint32
}

func (in *interner) id(s string) uint32 {
	if i, ok := in.index[s]; ok {
		return i
	}
	if in.index == nil {
		in.list = append(in.list, "")
		in.index = map[string]uint32{"": 0}
		if s == "" {
			return 0
		}
	}
	s = strings.Clone(s)
	in.index[s] = uint32(len(in.list))
	in.list = append(in.list, s)
	return uint32(len(in.list) - 1)
}

func (in *interner) get(i uint32) string {
	if int(i) < len(in.list) {
		return in.list[i]
	}
	return ""
}

// Len returns the number of test ids.
func (ts *Tests) Len() int {
	if ts == nil {
		return 0
	}
	return ts.n
}

// Get returns the test with the id.
func (ts *Tests) Get(id string) (Test, bool) {
	if ts.Len() == 0 {
		return Test{}, false
	}
	var h maphash.Hash
	h.SetSeed(ts.seed)
	h.WriteString(id)
	var buf []byte
	i, ok := ts.lookup(h.Sum64(), func(i int, r *testRec) bool {
		if !ts.lengthMatches(r, id) {
			return false
		}
		buf = ts.fullName(i, buf[:0])
		return idEquals(ts.suites.get(r.suite), r.sep(), buf, id)
	})
	if !ok {
		return Test{}, false
	}
	return ts.test(i, ts.fullName(i, nil)), true
}

// All yields the tests in the order the reports first named them.
func (ts *Tests) All() iter.Seq[Test] {
	return func(yield func(Test) bool) {
		ts.walk(func(i int, name []byte) bool { return yield(ts.test(i, name)) })
	}
}

// IDs returns the test ids, sorted.
func (ts *Tests) IDs() []string {
	ids := make([]string, 0, ts.Len())
	ts.walk(func(i int, name []byte) bool {
		r := ts.rec(i)
		ids = append(ids, ts.suites.get(r.suite)+sepText[r.sep()]+string(name))
		return true
	})
	sort.Strings(ids)
	return ids
}

// Counts counts the outcomes, one per test id.
func (ts *Tests) Counts() TestCounts {
	var c TestCounts
	for i := 0; i < ts.Len(); i++ {
		c.Total++
		switch ts.rec(i).outcome() {
		case Passed:
			c.Passed++
		case Failed:
			c.Failed++
		case Skipped:
			c.Skipped++
		case Errored:
			c.Errored++
		}
	}
	return c
}

// Add records a run of a test, merged with earlier runs of the same id as
// Merge describes. The id is t.ID when set, else built from t.Suite and
// t.Name ("suite.name", or the name alone when the suite is empty). It reports false, recording nothing, when the test
// has no id or the set is full (4 GiB of test names).
func (ts *Tests) Add(t Test) bool {
	suite, sep, name := t.Suite, sepDot, t.Name
	switch {
	case t.ID == "" && t.Suite == "" && t.Name == "":
		return false
	case t.ID == "" && t.Suite == "":
		sep = sepNone
	case t.ID == "":
	case t.Suite != "" && t.ID == t.Suite+"."+t.Name:
	case t.Suite != "" && t.ID == t.Suite+" > "+t.Name:
		sep = sepArrow
	default:
		suite, sep, name = "", sepNone, t.ID
	}
	return ts.add(suite, sep, name, t)
}

// add records a run of the test suite+sep+name; t carries the rest.
func (ts *Tests) add(suite string, sep uint8, name string, t Test) bool {
	if sep == sepNone {
		suite = ""
	}
	if ts.table == nil {
		ts.seed = maphash.MakeSeed()
		ts.table = make([]uint32, 64)
	}
	h := ts.hash(suite, sep, name)
	idx, ok := ts.lookup(h, func(i int, r *testRec) bool {
		if r.sep() != sep || r.nameLength() != len(name) || ts.suites.get(r.suite) != suite {
			// Equal ids split differently: compare whole ids.
			if r.nameLength()+len(ts.suites.get(r.suite))+len(sepText[r.sep()]) != len(suite)+len(sepText[sep])+len(name) {
				return false
			}
			ts.scratch = ts.fullName(i, ts.scratch[:0])
			return idEquals(ts.suites.get(r.suite), r.sep(), ts.scratch, suite+sepText[sep]+name)
		}
		ts.scratch = ts.fullName(i, ts.scratch[:0])
		return string(ts.scratch) == name
	})
	runs := max(t.Runs, 1)
	if ok {
		ts.merge(ts.rec(idx), t, runs)
		return true
	}
	shared := 0
	if ts.n%restartEach != 0 {
		for shared < len(ts.last) && shared < len(name) && shared < maxShared && ts.last[shared] == name[shared] {
			shared++
		}
	}
	if ts.n >= maxTests {
		return false
	}
	pos, ok := ts.store(name[shared:])
	if !ok {
		return false
	}
	r := testRec{
		name:    pos,
		nameLen: uint32(len(name)-shared) | uint32(sep)<<30,
		suite:   ts.suites.id(suite),
		file:    ts.files.id(t.File),
		runs:    uint16(min(runs, maxRuns)),
		shared:  uint8(shared),
	}
	r.setOutcome(t.Outcome)
	if t.Flaky {
		r.state |= stateFlaky
	}
	if t.Message != "" {
		ts.msgs = append(ts.msgs, truncate(t.Message, MaxMessageBytes))
		r.msg = uint32(len(ts.msgs))
	}
	if ts.n%recChunk == 0 {
		ts.recs = append(ts.recs, make([]testRec, 0, recChunk))
	}
	last := len(ts.recs) - 1
	ts.recs[last] = append(ts.recs[last], r)
	ts.n++
	ts.last = append(ts.last[:0], name...)
	ts.insert(h, ts.n-1)
	if ts.n*4 >= len(ts.table)*3 {
		ts.grow()
	}
	return true
}

// merge folds a run into a record: the worst outcome wins, with its message.
func (ts *Tests) merge(r *testRec, t Test, runs int) {
	r.runs = uint16(min(int(r.runs)+runs, maxRuns))
	if t.Flaky || isFailure(r.outcome()) && t.Outcome == Passed || r.outcome() == Passed && isFailure(t.Outcome) {
		r.state |= stateFlaky
	}
	if t.Outcome.rank() > r.outcome().rank() {
		r.setOutcome(t.Outcome)
		switch {
		case t.Message == "":
			r.msg = 0
		case r.msg != 0:
			ts.msgs[r.msg-1] = truncate(t.Message, MaxMessageBytes)
		default:
			ts.msgs = append(ts.msgs, truncate(t.Message, MaxMessageBytes))
			r.msg = uint32(len(ts.msgs))
		}
	}
	if r.file == 0 && t.File != "" {
		r.file = ts.files.id(t.File)
	}
}

func (ts *Tests) rec(i int) *testRec { return &ts.recs[i/recChunk][i%recChunk] }

func (ts *Tests) suffix(r *testRec) []byte {
	chunk, off := r.name>>20, int(r.name&(arenaChunk-1))
	return ts.names[chunk][off : off+r.suffixLen()]
}

// fullName appends the name of record i to buf, rebuilding it from the last
// record stored whole (at most restartEach-1 records back).
func (ts *Tests) fullName(i int, buf []byte) []byte {
	start := i
	for start > 0 && ts.rec(start).shared > 0 {
		start--
	}
	base := len(buf)
	for k := start; k <= i; k++ {
		r := ts.rec(k)
		buf = append(buf[:base+int(r.shared)], ts.suffix(r)...)
	}
	return buf
}

// walk calls f with each record and its name in order, rebuilding names
// incrementally; the name is only valid during the call.
func (ts *Tests) walk(f func(i int, name []byte) bool) {
	var name []byte
	for i := 0; i < ts.Len(); i++ {
		r := ts.rec(i)
		name = append(name[:r.shared], ts.suffix(r)...)
		if !f(i, name) {
			return
		}
	}
}

func (ts *Tests) test(i int, name []byte) Test {
	r := ts.rec(i)
	suite := ts.suites.get(r.suite)
	t := Test{
		ID:      suite + sepText[r.sep()] + string(name),
		File:    ts.files.get(r.file),
		Outcome: r.outcome(),
		Flaky:   r.flaky(),
		Runs:    int(r.runs),
	}
	if r.sep() == sepNone {
		t.Name = t.ID
	} else {
		t.Suite = t.ID[:len(suite)]
		t.Name = t.ID[len(suite)+len(sepText[r.sep()]):]
	}
	if r.msg != 0 {
		t.Message = ts.msgs[r.msg-1]
	}
	return t
}

// store appends a name suffix to the arena and returns its position. A
// suffix longer than a chunk gets a chunk of its own.
func (ts *Tests) store(s string) (uint32, bool) {
	if len(s) >= 1<<30 {
		return 0, false
	}
	last := len(ts.names) - 1
	if last < 0 || len(ts.names[last]) >= arenaChunk || len(ts.names[last])+len(s) > cap(ts.names[last]) {
		if len(ts.names) >= maxChunks {
			return 0, false
		}
		ts.names = append(ts.names, make([]byte, 0, max(arenaChunk, len(s))))
		last++
	}
	off := len(ts.names[last])
	ts.names[last] = append(ts.names[last], s...)
	return uint32(last)<<20 | uint32(off), true
}

func (ts *Tests) hash(suite string, sep uint8, name string) uint64 {
	var h maphash.Hash
	h.SetSeed(ts.seed)
	h.WriteString(suite)
	h.WriteString(sepText[sep])
	h.WriteString(name)
	return h.Sum64()
}

// lookup finds the record whose id has hash h and satisfies eq. The hash
// tag in each slot spares rebuilding the names of most other records.
func (ts *Tests) lookup(h uint64, eq func(int, *testRec) bool) (int, bool) {
	mask := uint64(len(ts.table) - 1)
	tag := uint32(h >> tagShift)
	for i := h & mask; ; i = (i + 1) & mask {
		slot := ts.table[i]
		if slot == 0 {
			return 0, false
		}
		if slot>>slotBits != tag {
			continue
		}
		if idx := int(slot&maxTests) - 1; eq(idx, ts.rec(idx)) {
			return idx, true
		}
	}
}

func (ts *Tests) insert(h uint64, idx int) {
	mask := uint64(len(ts.table) - 1)
	i := h & mask
	for ts.table[i] != 0 {
		i = (i + 1) & mask
	}
	ts.table[i] = uint32(h>>tagShift)<<slotBits | uint32(idx+1)
}

func (ts *Tests) grow() {
	ts.table = make([]uint32, 2*len(ts.table))
	var h maphash.Hash
	h.SetSeed(ts.seed)
	ts.walk(func(i int, name []byte) bool {
		r := ts.rec(i)
		h.Reset()
		h.WriteString(ts.suites.get(r.suite))
		h.WriteString(sepText[r.sep()])
		h.Write(name)
		ts.insert(h.Sum64(), i)
		return true
	})
}

// lengthMatches is a cheap filter before a record's name is rebuilt.
func (ts *Tests) lengthMatches(r *testRec, id string) bool {
	return len(ts.suites.get(r.suite))+len(sepText[r.sep()])+r.nameLength() == len(id)
}

// idEquals compares the id suite+sep+name with id without building it.
func idEquals(suite string, sep uint8, name []byte, id string) bool {
	s := sepText[sep]
	if len(suite)+len(s)+len(name) != len(id) {
		return false
	}
	return strings.HasPrefix(id, suite) && strings.HasPrefix(id[len(suite):], s) &&
		string(name) == id[len(suite)+len(s):]
}
