package errkind

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

type blocked struct{}

func (blocked) Error() string { return "blocked" }
func (blocked) Kind() Kind    { return Blocked }

func TestOf(t *testing.T) {
	for _, c := range []struct {
		err  error
		want Kind
	}{
		{errors.New("boom"), Internal},
		{blocked{}, Blocked},
		{fmt.Errorf("record: %w", blocked{}), Blocked},
		{&Error{K: Input, Err: errors.New("no such loop")}, Input},
		{fmt.Errorf("x: %w", context.Canceled), Interrupted},
		{fmt.Errorf("x: %w", &Error{K: Usage, Err: context.Canceled}), Usage}, // a kind said wins
	} {
		if got := Of(c.err); got != c.want {
			t.Errorf("Of(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
