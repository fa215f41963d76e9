package analyze

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// TestBuildConstraints: a constraint that takes a test file out of default
// go test runs is test_skipping high on the file; a platform constraint,
// or one already at BASE, stays quiet.
func TestBuildConstraints(t *testing.T) {
	for _, tag := range []string{"ignore", "integration", "never && linux"} {
		t.Run(tag, func(t *testing.T) {
			head := "//go:build " + tag + "\n\n" + goTestBase
			expectFinding(t, run(mod("calc_test.go", goTestBase, head)), gate.TestSkipping, gate.SeverityHigh, "calc_test.go", "")
		})
	}
	for _, tc := range []struct{ name, old, new string }{
		{"platform", goTestBase, "//go:build linux\n\n" + goTestBase},
		{"not windows", goTestBase, "//go:build !windows\n\n" + goTestBase},
		{"already tagged", "//go:build integration\n\n" + goTestBase, "//go:build integration\n\n" + goTestBase + "\n// more\n"},
		{"tag removed", "//go:build ignore\n\n" + goTestBase, goTestBase},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range run(mod("calc_test.go", tc.old, tc.new)) {
				if f.Rule == "build-constraint" {
					t.Errorf("look-alike reported: %+v", f)
				}
			}
		})
	}
}
