// Package state is what a Ralph loop keeps in the work tree under
// .aiwg/ralph, and how it is kept: state.json in AIWG's schemas, an
// append-only journal that every change goes through first, and
// registry.json. All three are sealed with an HMAC under a key kept outside
// the repository, and a loop is changed only under its lock (a POSIX record
// lock, never inherited by a child). It decides nothing: internal/loop
// reads and changes a loop through it.
//
// Files:
//
//	state.go      state.json's schema (loop-state.yaml, persistence-extension.yaml, ralph-gate's own), Status and its transitions
//	agentrun.go   AgentRun, how the agent of an iteration ended (iteration_history[].agent)
//	settings.go   the thresholds and weights in force (Settings) and reading them from AIWG's and ralph-gate's files
//	store.go      Store: loop ids, Load (replaying the journal), Save, Create, Check, Flush, Rebuild
//	journal.go    journal.jsonl: its entries, the patches between two states, replay
//	seal.go       the seal key and the HMACs of state.json, the journal and the registry; the marks kept outside the repository
//	lock.go       a loop's lock (lock_unix.go, lock_windows.go: taking it, and whether a process is alive)
//	registry.go   registry.json: the active and finished loops
//	files.go      the other files of a loop: hook-log.jsonl, iteration snapshots, info/exclude
//	toolcalls.go  tool-calls.jsonl, the guard's log of an agent's tool calls
//	legacy.go     current-loop.json, the single-loop state of earlier Ralph tools
package state
