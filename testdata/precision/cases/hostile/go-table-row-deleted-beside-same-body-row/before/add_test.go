package m

import "testing"

func TestAdd(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b int
		want int
	}{
		{"small", 1, 2, 3},
		{"large", 100, 200, 300},
		{"negative", -1, -2, -3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Add(tc.a, tc.b); got != tc.want {
				t.Errorf("Add = %d, want %d", got, tc.want)
			}
		})
	}
}
