package loop

import (
	"errors"
	"strings"
)

// Decider names who makes a human decision (approve, reject, abort, marking
// a finding a false positive). A decision is a person's: at a terminal it is
// the user's (user, their login name), recorded by name; from a script
// (standard input a pipe, a file or /dev/null, as when an agent runs the
// command) it needs by, a name given on purpose (--by NAME), so that nothing
// decides anonymously. atTerminal says whether standard input is a terminal
// (internal/terminal.Is).
func Decider(by string, atTerminal bool, user string) (string, error) {
	by = strings.TrimSpace(by)
	if strings.ContainsAny(by, "\n\r") {
		return "", errors.New("--by: a name on one line")
	}
	if by != "" {
		return by, nil
	}
	if atTerminal {
		return user, nil
	}
	return "", errors.New("standard input is not a terminal: say who decides with --by NAME (the decision is recorded with it)")
}
