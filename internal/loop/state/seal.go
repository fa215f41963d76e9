package state

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ralph-gate/ralph-gate/internal/errkind"
)

// The loop's files live in the repository, where the agent can write them:
// an agent that edits state.json can approve its own blocked iteration or
// mark the completion as passed. So every state.json and every journal entry
// ralph-gate writes carries an HMAC-SHA256 under a key kept outside the
// repository (the user's config directory), and a loop file whose seal does
// not verify is refused, never read. The journal's seals are chained (each
// covers the one before), so entries cannot be dropped, reordered or moved
// between loops. registry.json is sealed the same way; it only lists loops,
// so repair can always rebuild it from their verified states.

// SealKeyName is the key's file name in the seal directory.
const SealKeyName = "loop-seal.key"

// TamperedError is a loop file changed outside ralph-gate.
type TamperedError struct {
	Path string
	Why  string
}

// Kind: state changed outside ralph-gate; a person repairs it.
func (e *TamperedError) Kind() errkind.Kind { return errkind.Input }

func (e *TamperedError) Error() string {
	return fmt.Sprintf("%s %s; it was changed outside ralph-gate, so the loop is refused (a person can rebuild it from the verified journal: ralph-gate repair --loop ID)", e.Path, e.Why)
}

// LoadSealKey reads the seal key from dir, creating dir (0700) and a new
// random key (0600) on first use. Concurrent first uses agree on one key.
func LoadSealKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, SealKeyName)
	if key, err := readKey(path); err == nil || !errors.Is(err, os.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".loop-seal-*")
	if err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("seal key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	// A hard link never replaces a key another process made first.
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	return readKey(path)
}

func readKey(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(string(trimSpace(data)))
	if err != nil || len(key) < 16 {
		return nil, fmt.Errorf("seal key %s: not a key ralph-gate wrote (want hex); remove it to make a new one (loops sealed with it will need repair)", path)
	}
	return key, nil
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r' || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	return b
}

// mac is the hex HMAC-SHA256 of the parts, each length-prefixed so that no
// two different part lists give the same input.
func (s *Store) mac(parts ...string) string {
	h := hmac.New(sha256.New, s.Key)
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p)) + ":"))
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sealState returns state.json's bytes with its seal set: the MAC of the
// document written with an empty seal.
func (s *Store) sealState(st *State) []byte {
	st.RalphGate.Seal = ""
	if s.Key == nil {
		return MustIndent(st)
	}
	st.RalphGate.Seal = s.mac("state", st.LoopID, string(MustIndent(st)))
	return MustIndent(st)
}

// verifyState checks state.json's seal.
func (s *Store) verifyState(path string, st *State) error {
	if s.Key == nil {
		return nil
	}
	seal := st.RalphGate.Seal
	if seal == "" {
		return &TamperedError{Path: path, Why: "carries no seal"}
	}
	cp := *st
	cp.RalphGate.Seal = ""
	if !hmac.Equal([]byte(seal), []byte(s.mac("state", st.LoopID, string(MustIndent(&cp))))) {
		return &TamperedError{Path: path, Why: "does not match its seal"}
	}
	return nil
}

// sealEntry sets a journal entry's seal, chained to the one before it.
func (s *Store) sealEntry(id string, e *journalEntry, prev string) {
	e.MAC = ""
	if s.Key == nil {
		return
	}
	body, _ := json.Marshal(e)
	e.MAC = s.mac("journal", id, prev, string(body))
}

// verifyJournal checks the chain of seals and returns how many entries, from
// the first, verify; err names the first that does not.
func (s *Store) verifyJournal(path, id string, entries []journalEntry) (int, error) {
	if s.Key == nil {
		return len(entries), nil
	}
	prev := ""
	for i := range entries {
		e := entries[i]
		got := e.MAC
		s.sealEntry(id, &e, prev)
		if got == "" || !hmac.Equal([]byte(got), []byte(e.MAC)) {
			return i, &TamperedError{Path: path, Why: fmt.Sprintf("entry %d does not match its seal", e.Seq)}
		}
		prev = got
	}
	return len(entries), nil
}

// sealRegistry returns registry.json's bytes with its seal set.
func (s *Store) sealRegistry(r *Registry) []byte {
	r.Seal = ""
	if s.Key == nil {
		return MustIndent(r)
	}
	r.Seal = s.mac("registry", string(MustIndent(r)))
	return MustIndent(r)
}

// verifyRegistry checks registry.json's seal.
func (s *Store) verifyRegistry(r *Registry) error {
	if s.Key == nil {
		return nil
	}
	seal := r.Seal
	if seal == "" {
		return &TamperedError{Path: s.registryPath(), Why: "carries no seal"}
	}
	cp := *r
	cp.Seal = ""
	if !hmac.Equal([]byte(seal), []byte(s.mac("registry", string(MustIndent(&cp))))) {
		return &TamperedError{Path: s.registryPath(), Why: "does not match its seal"}
	}
	return nil
}

// A sealed file cannot be forged, but it can be put back: an agent that
// copies a loop's state.json and journal and restores them later rolls the
// loop back (a pending decision, a regression, a recovery attempt gone).
// So each save also writes the loop's last journal entry (its number and
// seal) to a mark in the seal directory, outside the repository, and a
// loop whose journal ends before its mark, or differs from it there, is
// refused.

// markPath is a loop's mark.
func (s *Store) markPath(id string) string {
	return filepath.Join(s.SealDir, "loops", id+".mark")
}

type mark struct {
	Seq int    `json:"seq"`
	MAC string `json:"mac"`
}

func (s *Store) writeMark(id string, seq int, mac string) error {
	if s.SealDir == "" || s.Key == nil {
		return nil
	}
	path := s.markPath(id)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("seal mark: %w", err)
	}
	data, _ := json.Marshal(mark{Seq: seq, MAC: mac})
	return WriteAtomic(path, data)
}

// checkMark refuses a journal that ends before the loop's mark or that
// does not hold the marked entry.
func (s *Store) checkMark(id, jpath string, entries []journalEntry) error {
	if s.SealDir == "" || s.Key == nil {
		return nil
	}
	data, err := os.ReadFile(s.markPath(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil // a loop sealed before marks, or made on another machine
	}
	if err != nil {
		return fmt.Errorf("seal mark: %w", err)
	}
	var m mark
	if json.Unmarshal(data, &m) != nil {
		return fmt.Errorf("seal mark %s is not one ralph-gate wrote; remove it to accept the loop's files as they are", s.markPath(id))
	}
	for _, e := range entries {
		if e.Seq == m.Seq {
			if !hmac.Equal([]byte(e.MAC), []byte(m.MAC)) {
				return &TamperedError{Path: jpath, Why: fmt.Sprintf("holds an entry %d that is not the one ralph-gate wrote", m.Seq)}
			}
			return nil
		}
	}
	last := 0
	if len(entries) > 0 {
		last = entries[len(entries)-1].Seq
	}
	return &TamperedError{Path: jpath, Why: fmt.Sprintf("ends at entry %d, but ralph-gate wrote up to entry %d: the loop's files were put back as they were earlier", last, m.Seq)}
}
