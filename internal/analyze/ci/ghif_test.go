package ci

import "testing"

// TestOffOnPullRequest: a condition is off only when a pull_request run
// makes it false whatever else holds.
func TestOffOnPullRequest(t *testing.T) {
	for cond, want := range map[string]bool{
		"":                                    false,
		"false":                               true,
		"${{ false }}":                        true,
		"github.event_name == 'push'":         true,
		"${{ github.event_name == 'push' }}":  true,
		"github.event_name == 'PULL_REQUEST'": false,
		"github.event_name != 'pull_request'": true,
		"github.event_name == 'push' || github.event_name == 'schedule'": true,
		"github.event_name == 'push' || matrix.os == 'linux'":            false,
		"github.event_name == 'push' && matrix.os == 'linux'":            true,
		"github.ref == 'refs/heads/main'":                                true,
		"startsWith(github.ref, 'refs/tags/')":                           true,
		"startsWith(github.ref, 'refs/pull/')":                           false,
		"github.ref_type == 'tag'":                                       true,
		"failure()":                                                      true,
		"success()":                                                      false,
		"always()":                                                       false,
		"${{ !cancelled() }}":                                            false,
		"!cancelled() && github.event_name == 'push'":                    true,
		"matrix.os == 'ubuntu-latest'":                                   false,
		"github.event.pull_request.draft == false":                       false,
		"contains(github.event.head_commit.message, '[skip tests]')":     false,
		"!contains(github.event_name, 'pull')":                           true,
		"(github.event_name == 'push')":                                  true,
		"inputs.run-tests":                                               false,
		"github.event_name == 'push' ||":                                 false,
		"'push' == 'PUSH'":                                               false,
		"1 > 2":                                                          true,
		"${{ github.event_name }} == 'push'":                             false,
	} {
		if got := offOnPullRequest(cond); got != want {
			t.Errorf("offOnPullRequest(%q) = %v, want %v", cond, got, want)
		}
	}
}

func FuzzOffOnPullRequest(f *testing.F) {
	for _, s := range []string{"github.event_name == 'push'", "${{ startsWith(github.ref, 'refs/tags/') && !failure() }}", "((a", "'x''y' == x[1]['z']", "-1.5e3 < 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		offOnPullRequest(s) // must not panic or hang
	})
}
