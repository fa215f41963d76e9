package cli

import (
	"context"
	"fmt"

	"github.com/ralph-gate/ralph-gate/internal/config"
)

func init() {
	register("waive", waiveHelp, runWaive)
}

const waiveHelp = `Usage:
  ralph-gate waive ID --reason TEXT --by NAME [--days N]

Prints the waivers: entry that lets finding ID (as a report gives it, e.g.
RG-TD-1a2b3c4d5e6f) through for N days: add it to .ralph-gate.yml on the base
branch, where the gate reads its configuration. A waived finding is reported as
waived in every output and never blocks; once the waiver expires, the finding
blocks again and the expired waiver is itself a finding. A waiver added by the
change it would let through never counts.

Flags:
`

func runWaive(_ context.Context, args []string, env Env) error {
	fs := newFlagSet("waive", env)
	reason := fs.String("reason", "", "why the change is right, `TEXT` (required)")
	by := fs.String("by", "", "`NAME` of who reviewed it (required)")
	days := fs.Int("days", 30, "how long the waiver holds, `N` days from 1 to 366 (default 30)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("waive", err, env)
	}
	if len(pos) != 1 {
		return usagef("waive takes one finding id, got %d arguments", len(pos))
	}
	y, err := config.WaiverYAML(pos[0], *reason, *by, *days)
	if err != nil {
		return usagef("%v", err)
	}
	fmt.Fprint(env.Stdout, y)
	return nil
}
