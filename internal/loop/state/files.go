package state

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// The loop's files beside state.json and the journal: the hook log, the
// iterations' snapshots, and the repository's info/exclude entry.

// WriteSnapshot writes an iteration's snapshot file
// (iterations/iteration-NNN.json).
func (s *Store) WriteSnapshot(st *State, it *Iteration) error {
	path := filepath.Join(s.Root, filepath.FromSlash(it.SnapshotPath))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	snap := map[string]any{"loop_id": st.LoopID, "task": st.Task, "iteration": it}
	return WriteAtomic(path, MustIndent(snap))
}

// AppendLog appends one JSON line to a loop's hook-log.jsonl, the audit
// trail of every hook point the loop passed.
func (s *Store) AppendLog(id string, entry any) error {
	line, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(s.LoopDir(id), hookLogName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Exclude adds RalphDir to the repository's info/exclude so that an agent's
// `git add -A` never commits loop state.
func Exclude(commonGitDir string) error {
	return ExcludePath(commonGitDir, RalphDir+"/", "ralph-gate loop state")
}

// ExcludePath adds a path of the work tree (a directory ends in "/") to the
// repository's info/exclude, once, with a comment line.
func ExcludePath(commonGitDir, rel, comment string) error {
	path := filepath.Join(commonGitDir, "info", "exclude")
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	bare := strings.TrimSuffix(rel, "/")
	line := "/" + rel
	for _, l := range strings.Split(string(data), "\n") {
		if t := strings.TrimSpace(l); t == line || t == rel || t == bare || t == "/"+bare {
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	b.Write(data)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("# " + comment + "\n" + line + "\n")
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// CommonGitDir resolves a git directory to the one its linked worktrees
// share (where info/exclude lives).
func CommonGitDir(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	p := strings.TrimSpace(string(data))
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return filepath.Clean(p)
}
