package cli

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/loop"
)

func TestAskDecision(t *testing.T) {
	tests := []struct {
		name, input, want string
		wantErr           bool
	}{
		{name: "approve", input: "a\n", want: loop.DecisionApprove},
		{name: "reject word", input: "reject\n", want: loop.DecisionReject},
		{name: "abort after a bad answer", input: "maybe\nb\n", want: loop.DecisionAbort},
		{name: "end of input", input: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			got, err := askDecision(strings.NewReader(tt.input), &out)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("askDecision(%q) = %q, %v; want %q (error %v)", tt.input, got, err, tt.want, tt.wantErr)
			}
			if !strings.Contains(out.String(), "[a]pprove") {
				t.Errorf("no question asked: %q", out.String())
			}
		})
	}
}
