package rust

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// A panic on a spawned thread (or a spawned task) fails the test only
// through its handle: `h.join().unwrap()` (or `.expect`, `?`, an
// is_ok/is_err check) re-raises it, `h.await.unwrap()` for a task. A
// handle dropped, or joined with its result thrown away (`let _ =
// h.join();`), loses it. So the checks in a spawned closure whose body
// nothing joins that way are Detached (testscan.Detached), and the calls
// made there are not the test's. Scoped threads (thread::scope) are
// joined by their scope and are not read here.

// spawnSpan is the argument list of a spawn call nothing joins, or of a
// catch_unwind whose result is dropped.
type spawnSpan struct {
	open, close int    // its parentheses
	cond        string // the arm's condition (testscan.Detached or Swallowed and the call)
}

// detachedSpawns returns the spawn calls (thread::spawn, tokio::spawn,
// task::spawn) of the body between open and close whose handles are not
// joined after them, the thread's panic kept. The reading is lenient: any
// handle joined that way after a spawn counts for it.
func detachedSpawns(toks []token, match []int, open, close int) []spawnSpan {
	var out []spawnSpan
	for i := open + 1; i+1 < close; i++ {
		t := toks[i]
		if t.Kind == tkIdent && t.Text == "catch_unwind" && isPunct(toks[i+1], "(") {
			if end := match[i+1]; end > i+1 && end <= close && !unwindKept(toks, i, end, close) {
				out = append(out, spawnSpan{open: i + 1, close: end, cond: testscan.Swallowed + "catch_unwind(...)"})
				i = end
			}
			continue
		}
		if t.Kind != tkIdent || t.Text != "spawn" || !isPunct(toks[i+1], "(") || i < 2 || !isPunct(toks[i-1], "::") {
			continue
		}
		mod := toks[i-2]
		if mod.Kind != tkIdent || mod.Text != "thread" && mod.Text != "tokio" && mod.Text != "task" {
			continue
		}
		end := match[i+1]
		if end <= i+1 || end > close {
			continue
		}
		if joinedAfter(toks, end, close) {
			continue
		}
		out = append(out, spawnSpan{open: i + 1, close: end, cond: testscan.Detached + mod.Text + "::spawn(...)"})
		i = end
	}
	return out
}

// joinedAfter reports whether the tokens after from (up to close) join a
// handle and keep its panic: `.join()` or `.await` followed by unwrap,
// expect, `?`, unwrap_err, is_ok or is_err, or join_all/try_join_all.
func joinedAfter(toks []token, from, close int) bool {
	for k := from + 1; k < close; k++ {
		t := toks[k]
		if t.Kind != tkIdent {
			continue
		}
		switch t.Text {
		case "join_all", "try_join_all", "join", "try_join":
			if t.Text == "join" || t.Text == "try_join" {
				if !isPunct(toks[k-1], ".") {
					// futures::join!(a, b) and tokio::join!: the outputs
					// are kept.
					if k+1 < close && isPunct(toks[k+1], "!") {
						return true
					}
					continue
				}
				if k+2 >= close || !isPunct(toks[k+1], "(") || !isPunct(toks[k+2], ")") {
					continue
				}
				if keepsPanic(toks, k+3, close) {
					return true
				}
				continue
			}
			return true
		case "await":
			if isPunct(toks[k-1], ".") && keepsPanic(toks, k+1, close) {
				return true
			}
		}
	}
	return false
}

// keepsPanic reports whether the result at k is unwrapped or checked:
// `.unwrap()`, `.expect(..)`, `.unwrap_err()`, `.is_ok()`, `.is_err()`
// or `?`.
func keepsPanic(toks []token, k, close int) bool {
	if k >= close {
		return false
	}
	if isPunct(toks[k], "?") {
		return true
	}
	if !isPunct(toks[k], ".") || k+1 >= close || toks[k+1].Kind != tkIdent {
		return false
	}
	switch toks[k+1].Text {
	case "unwrap", "expect", "unwrap_err", "expect_err", "is_ok", "is_err":
		return true
	}
	return false
}

// inSpawn returns the detached spawn the token at i lies in, nil when none.
func inSpawn(spans []spawnSpan, i int) *spawnSpan {
	for k, s := range spans {
		if i > s.open && i < s.close {
			return &spans[k]
		}
	}
	return nil
}

// spanArm is the arm of a check in span s: a detached spawn or a
// dropped catch_unwind.
func spanArm(s *spawnSpan) testscan.Arm {
	return testscan.Arm{At: s.open, Cond: s.cond}
}

// unwindKept reports whether the result of the catch_unwind call at i
// (its arguments closing at end) is kept: unwrapped or checked at once
// (unwindKept's keepsPanic), or bound to a name the body uses after it.
// Otherwise (`let _ = catch_unwind(..);`, a statement of its own) a check's
// panic inside is caught and dropped.
func unwindKept(toks []token, i, end, close int) bool {
	if keepsPanic(toks, end+1, close) {
		return true
	}
	// Walk back over the path (std::panic::) to a `let name =`.
	k := i
	for k >= 2 && isPunct(toks[k-1], "::") && toks[k-2].Kind == tkIdent {
		k -= 2
	}
	if k < 3 || !isPunct(toks[k-1], "=") {
		return k >= 1 && !isPunct(toks[k-1], ";") && !isPunct(toks[k-1], "{") && !isPunct(toks[k-1], "}") // an argument or an expression: read by what holds it
	}
	name := toks[k-2]
	if name.Kind != tkIdent || name.Text == "_" {
		return false
	}
	for j := end + 1; j < close; j++ {
		if toks[j].Kind == tkIdent && toks[j].Text == name.Text {
			return true
		}
	}
	return false
}
