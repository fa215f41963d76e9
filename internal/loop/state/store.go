package state

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/atomicfile"
	"github.com/ralph-gate/ralph-gate/internal/errkind"
)

// Layout under the repository's work tree, as AIWG keeps it.
const (
	// RalphDir holds everything; it is added to .git/info/exclude.
	RalphDir     = ".aiwg/ralph"
	registryName = "registry.json"
	stateName    = "state.json"
	journalName  = "journal.jsonl"
	hookLogName  = "hook-log.jsonl"
	LegacyName   = "current-loop.json"
)

// ErrNotFound says a loop does not exist.
var ErrNotFound error = &errkind.Error{K: errkind.Input, Err: errors.New("no such loop")}

// CorruptError is a state.json that does not parse. It is never overwritten.
type CorruptError struct {
	Path string
	Err  error
}

// Kind: state that does not parse; a person repairs it.
func (e *CorruptError) Kind() errkind.Kind { return errkind.Input }

func (e *CorruptError) Error() string {
	return fmt.Sprintf("%s is corrupt (%v); it was left untouched: rebuild it from its journal with 'ralph-gate repair --loop %s'",
		e.Path, e.Err, filepath.Base(filepath.Dir(e.Path)))
}

func (e *CorruptError) Unwrap() error { return e.Err }

// Store is the loop state of one repository work tree.
type Store struct {
	Root string // the work tree root
	Dir  string // Root/.aiwg/ralph
	// Key seals state.json and the journal (seal.go); nil writes and reads
	// them unsealed (tests of the loop package). The command line always
	// sets it.
	Key []byte
	// SealDir, when set, keeps each loop's last journal entry outside the
	// repository (seal.go, marks), so that a loop's files put back as they
	// were earlier (sealed, but old) are refused.
	SealDir string
}

// NewStore returns the store of the work tree at root.
func NewStore(root string) *Store {
	return &Store{Root: root, Dir: filepath.Join(root, filepath.FromSlash(RalphDir))}
}

// LoopDir is the directory of a loop.
func (s *Store) LoopDir(id string) string { return filepath.Join(s.Dir, "loops", id) }

// StatePath is a loop's state.json.
func (s *Store) StatePath(id string) string { return filepath.Join(s.LoopDir(id), stateName) }

// RelStatePath is state.json relative to the work tree, as the registry
// names it.
func RelStatePath(id string) string { return RalphDir + "/loops/" + id + "/" + stateName }

var loopIDPattern = lazyre.New(`^ralph-[a-z0-9-]+-[a-f0-9]{8}$`)

// ValidID reports whether id is a loop id (ralph-{slug}-{8 hex}).
func ValidID(id string) bool { return loopIDPattern.MatchString(id) }

// Slug makes a loop id's slug from a task: lower-case words of letters and
// digits joined by hyphens, at most 32 characters.
func Slug(task string) string {
	var words []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for _, r := range strings.ToLower(task) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			cur.WriteRune(r)
		} else {
			flush()
		}
	}
	flush()
	out := ""
	for _, w := range words {
		next := w
		if out != "" {
			next = out + "-" + w
		}
		if len(next) > 32 {
			if out == "" {
				out = w[:32]
			}
			break
		}
		out = next
	}
	if out == "" {
		out = "loop"
	}
	return out
}

// NewID makes a loop id from a slug.
func NewID(slug string) (string, error) {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	id := "ralph-" + slug + "-" + hex.EncodeToString(b)
	if !ValidID(id) {
		return "", fmt.Errorf("slug %q: want lower-case letters, digits and hyphens", slug)
	}
	return id, nil
}

// NewUUID returns a random (version 4) UUID, for event and recovery ids.
func NewUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Loops lists the loop ids that have a directory, sorted.
func (s *Store) Loops() ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(s.Dir, "loops"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		if e.IsDir() && ValidID(e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// Snapshot is a loaded state with the document it was read from, so that a
// save can journal only what changed.
type Snapshot struct {
	State *State
	doc   json.RawMessage
	seq   int
	mac   string // the journal's last seal, which the next entry chains to
	// Replayed counts journal entries applied because state.json lacked them;
	// Torn counts torn journal lines skipped; Dropped counts journal entries
	// repair left out because their seals did not verify.
	Replayed, Torn, Dropped int
}

// Load reads a loop's state, replaying journal entries that state.json lacks.
func (s *Store) Load(id string) (*Snapshot, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("loop %q: %w (a loop id looks like ralph-fix-tests-1a2b3c4d)", id, ErrNotFound)
	}
	if err := s.checkLinks(id); err != nil {
		return nil, err
	}
	path := s.StatePath(id)
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("loop %s: %w (no %s)", id, ErrNotFound, path)
	}
	if err != nil {
		return nil, err
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, &CorruptError{Path: path, Err: err}
	}
	if err := s.verifyState(path, &st); err != nil {
		return nil, err
	}
	snap := &Snapshot{State: &st, doc: data, seq: st.RalphGate.JournalSeq}
	jpath := filepath.Join(s.LoopDir(id), journalName)
	entries, torn, err := readJournal(jpath)
	if err != nil {
		return nil, err
	}
	if _, err := s.verifyJournal(jpath, id, entries); err != nil {
		return nil, err
	}
	if s.Key != nil && (len(entries) == 0 || entries[len(entries)-1].Seq < snap.seq) {
		return nil, &TamperedError{Path: jpath, Why: fmt.Sprintf("ends before entry %d, which state.json says was written", snap.seq)}
	}
	if len(entries) > 0 {
		snap.mac = entries[len(entries)-1].MAC
	}
	if err := s.checkMark(id, jpath, entries); err != nil {
		return nil, err
	}
	snap.Torn = torn
	doc := json.RawMessage(data)
	for _, e := range entries {
		if e.Seq <= snap.seq {
			continue
		}
		if doc, err = apply(doc, e.Ops); err != nil {
			return nil, fmt.Errorf("%s: replay journal entry %d: %w", path, e.Seq, err)
		}
		snap.seq = e.Seq
		snap.Replayed++
	}
	if snap.Replayed > 0 {
		var rs State
		if err := json.Unmarshal(doc, &rs); err != nil {
			return nil, fmt.Errorf("%s: replayed journal does not give a state: %w", path, err)
		}
		rs.RalphGate.JournalSeq = snap.seq
		snap.State = &rs
		// The next save journals against the replayed state and rewrites
		// state.json; a read-only command leaves the files as they are.
		snap.doc = MustIndent(&rs)
	}
	return snap, nil
}

// Flush writes state.json when Load replayed journal entries it lacked (a
// process killed between its journal entry and its state.json): the caller
// holds the loop's lock, and state.json, which AIWG tools read, is up to date
// again. Nothing is journaled: the entries are already there.
func (s *Store) Flush(snap *Snapshot) error {
	if snap.Replayed == 0 {
		return nil
	}
	data := s.sealState(snap.State)
	if err := WriteAtomic(s.StatePath(snap.State.LoopID), data); err != nil {
		return err
	}
	snap.doc, snap.Replayed = data, 0
	return nil
}

// Check verifies that the loop's files on disk are still the ones snap was
// loaded from or last saved as: a controller that holds the loop for long
// (ralph-gate run, while the agent works) calls it before it goes on, so a
// loop file changed meanwhile is refused rather than silently overwritten.
func (s *Store) Check(snap *Snapshot) error {
	disk, err := s.Load(snap.State.LoopID)
	if err != nil {
		return err
	}
	if disk.seq != snap.seq || disk.Replayed > 0 {
		return &TamperedError{Path: s.StatePath(snap.State.LoopID), Why: fmt.Sprintf("is at journal entry %d, not %d, which ralph-gate last wrote", disk.seq, snap.seq)}
	}
	return nil
}

// Save journals what changed since snap was loaded, then replaces state.json.
func (s *Store) Save(snap *Snapshot, op string, now time.Time) error {
	st := snap.State
	st.RalphGate.JournalSeq = snap.seq + 1
	data := s.sealState(st)
	ops, err := diff(nil, snap.doc, data)
	if err != nil {
		return err
	}
	if snap.doc == nil {
		ops = []patchOp{{Set: data}}
	}
	entry := journalEntry{Seq: snap.seq + 1, At: now, Op: op, Ops: ops}
	s.sealEntry(st.LoopID, &entry, snap.mac)
	if err := appendJournal(filepath.Join(s.LoopDir(st.LoopID), journalName), entry); err != nil {
		return fmt.Errorf("journal loop %s: %w", st.LoopID, err)
	}
	if err := WriteAtomic(s.StatePath(st.LoopID), data); err != nil {
		return err
	}
	snap.doc, snap.seq, snap.mac = data, snap.seq+1, entry.MAC
	return s.writeMark(st.LoopID, snap.seq, snap.mac)
}

// Create writes a new loop's state (the journal's first entry sets it all).
func (s *Store) Create(st *State, now time.Time) (*Snapshot, error) {
	if err := s.checkLinks(st.LoopID); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.LoopDir(st.LoopID), 0o755); err != nil {
		return nil, err
	}
	if _, err := os.Stat(s.StatePath(st.LoopID)); err == nil {
		return nil, fmt.Errorf("loop %s already exists", st.LoopID)
	}
	snap := &Snapshot{State: st}
	return snap, s.Save(snap, "start", now)
}

// Rebuild rebuilds state.json from the journal alone, keeping the damaged
// file beside it. Only the journal's verified entries count: replay stops at
// the first entry whose seal does not verify (Dropped counts the rest). A
// journal without any seal, written before loops were sealed, is taken as it
// is: a person runs repair. The journal is rewritten with the entries used,
// sealed again, and state.json sealed.
func (s *Store) Rebuild(id string, now time.Time) (*Snapshot, string, error) {
	jpath := filepath.Join(s.LoopDir(id), journalName)
	entries, _, err := readJournal(jpath)
	if err != nil {
		return nil, "", err
	}
	dropped := 0
	if s.Key != nil && !unsealed(entries) {
		n, _ := s.verifyJournal(jpath, id, entries)
		dropped, entries = len(entries)-n, entries[:n]
	}
	if len(entries) == 0 || entries[0].Seq != 1 {
		return nil, "", fmt.Errorf("loop %s: the journal holds no verified entry from the loop's start; nothing to rebuild from", id)
	}
	var doc json.RawMessage
	for _, e := range entries {
		if doc, err = apply(doc, e.Ops); err != nil {
			return nil, "", fmt.Errorf("loop %s: replay journal entry %d: %w", id, e.Seq, err)
		}
	}
	var st State
	if err := json.Unmarshal(doc, &st); err != nil {
		return nil, "", fmt.Errorf("loop %s: the journal does not give a state: %w", id, err)
	}
	path := s.StatePath(id)
	kept := ""
	if _, err := os.Stat(path); err == nil {
		kept = path + ".damaged-" + now.UTC().Format("20060102T150405Z")
		if err := os.Rename(path, kept); err != nil {
			return nil, "", err
		}
	}
	var journal []byte
	prev := ""
	for i := range entries {
		s.sealEntry(id, &entries[i], prev)
		prev = entries[i].MAC
		line, err := json.Marshal(entries[i])
		if err != nil {
			return nil, "", err
		}
		journal = append(append(journal, line...), '\n')
	}
	if err := WriteAtomic(jpath, journal); err != nil {
		return nil, "", err
	}
	st.RalphGate.JournalSeq = entries[len(entries)-1].Seq
	data := s.sealState(&st)
	if err := WriteAtomic(path, data); err != nil {
		return nil, "", err
	}
	// A person rebuilt the loop: what the journal verifiably holds is its
	// history from now on.
	if err := s.writeMark(id, st.RalphGate.JournalSeq, prev); err != nil {
		return nil, "", err
	}
	return &Snapshot{State: &st, doc: data, seq: st.RalphGate.JournalSeq, mac: prev, Dropped: dropped}, kept, nil
}

// unsealed reports a journal written before loops were sealed: no entry
// carries a seal.
func unsealed(entries []journalEntry) bool {
	for _, e := range entries {
		if e.MAC != "" {
			return false
		}
	}
	return true
}

// MustIndent is v as indented JSON with a final newline, as the loop's
// files are written.
func MustIndent(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("marshal state: %v", err)) // only plain data types: cannot fail
	}
	return append(b, '\n')
}

// WriteAtomic replaces path with data (atomicfile.Write, mode 0644).
func WriteAtomic(path string, data []byte) error { return atomicfile.Write(path, data, 0o644) }

// LinkError is a loop directory that is a symbolic link: the agent can make
// one, and loop state is never read or written through it.
type LinkError struct{ Path string }

// Kind: a link where state goes; the user removes it.
func (e *LinkError) Kind() errkind.Kind { return errkind.Input }

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link: loop state is not read or written through one (remove it; ralph-gate makes a plain directory)", e.Path)
}

// checkLinks refuses a symbolic link among .aiwg, .aiwg/ralph, its loops
// directory and the loop's own (id "" for the registry's part).
func (s *Store) checkLinks(id string) error {
	paths := []string{filepath.Join(s.Root, ".aiwg"), s.Dir, filepath.Join(s.Dir, "loops")}
	if id != "" {
		paths = append(paths, s.LoopDir(id))
	}
	for _, p := range paths {
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return &LinkError{Path: p}
		}
	}
	return nil
}
