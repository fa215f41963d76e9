package hook

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	shaA = "1111111111111111111111111111111111111111"
	shaB = "2222222222222222222222222222222222222222"
	zero = "0000000000000000000000000000000000000000"
)

func TestParseRefLine(t *testing.T) {
	sha256A := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name    string
		line    string
		want    RefUpdate
		wantErr string
	}{
		{name: "update", line: "refs/heads/main " + shaA + " refs/heads/main " + shaB,
			want: RefUpdate{"refs/heads/main", shaA, "refs/heads/main", shaB}},
		{name: "new branch", line: "refs/heads/feature " + shaA + " refs/heads/feature " + zero,
			want: RefUpdate{"refs/heads/feature", shaA, "refs/heads/feature", zero}},
		{name: "deletion", line: "(delete) " + zero + " refs/heads/old " + shaB,
			want: RefUpdate{"(delete)", zero, "refs/heads/old", shaB}},
		{name: "tag", line: "refs/tags/v1 " + shaA + " refs/tags/v1 " + zero,
			want: RefUpdate{"refs/tags/v1", shaA, "refs/tags/v1", zero}},
		{name: "revision as typed", line: "HEAD~ " + shaA + " refs/heads/x " + zero,
			want: RefUpdate{"HEAD~", shaA, "refs/heads/x", zero}},
		{name: "local ref with a space", line: "HEAD@{1 day ago} " + shaA + " refs/heads/x " + zero,
			want: RefUpdate{"HEAD@{1 day ago}", shaA, "refs/heads/x", zero}},
		{name: "upper-case hex is lowered", line: "refs/heads/main " + strings.ToUpper(strings.Repeat("ab", 20)) + " refs/heads/main " + shaB,
			want: RefUpdate{"refs/heads/main", strings.Repeat("ab", 20), "refs/heads/main", shaB}},
		{name: "sha-256", line: "refs/heads/main " + sha256A + " refs/heads/main " + strings.Repeat("0", 64),
			want: RefUpdate{"refs/heads/main", sha256A, "refs/heads/main", strings.Repeat("0", 64)}},
		{name: "tabs and trailing blanks", line: "refs/heads/main\t" + shaA + "\trefs/heads/main\t" + shaB + " \t",
			want: RefUpdate{"refs/heads/main", shaA, "refs/heads/main", shaB}},
		{name: "three fields", line: shaA + " refs/heads/main " + shaB, wantErr: "fewer than 4 fields"},
		{name: "one field", line: "refs/heads/main", wantErr: "fewer than 4 fields"},
		{name: "short sha", line: "refs/heads/main 1234567 refs/heads/main " + shaB, wantErr: "local sha is not an object name"},
		{name: "bad remote sha", line: "refs/heads/main " + shaA + " refs/heads/main xyz", wantErr: "remote sha is not an object name"},
		{name: "mixed hash lengths", line: "refs/heads/main " + sha256A + " refs/heads/main " + shaB, wantErr: "differ in length"},
		{name: "short remote ref", line: "refs/heads/main " + shaA + " main " + shaB, wantErr: "not a full ref name"},
		{name: "control character", line: "refs/heads/a\x1b[31m " + shaA + " refs/heads/main " + shaB, wantErr: "control character"},
		{name: "swapped fields", line: shaA + " refs/heads/main " + shaB + " refs/heads/main", wantErr: "not an object name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseRefLine(tc.line)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseRefLine(%q) error = %v, want it to contain %q", tc.line, err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error spans lines: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseRefLine(%q): %v", tc.line, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseRefLine(%q) (-want +got):\n%s", tc.line, diff)
			}
		})
	}
}

func TestRefUpdateKinds(t *testing.T) {
	for _, tc := range []struct {
		u                      RefUpdate
		deletes, creates, tags bool
	}{
		{RefUpdate{"refs/heads/main", shaA, "refs/heads/main", shaB}, false, false, false},
		{RefUpdate{"refs/heads/x", shaA, "refs/heads/x", zero}, false, true, false},
		{RefUpdate{"(delete)", zero, "refs/heads/x", shaB}, true, false, false},
		{RefUpdate{"refs/tags/v1", shaA, "refs/tags/v1", zero}, false, true, true},
		{RefUpdate{"refs/heads/x", "", "refs/heads/x", ""}, false, true, false},
	} {
		if got := tc.u.Deletes(); got != tc.deletes {
			t.Errorf("%+v Deletes() = %v", tc.u, got)
		}
		if got := tc.u.Creates(); got != tc.creates {
			t.Errorf("%+v Creates() = %v", tc.u, got)
		}
		if got := tc.u.IsTag(); got != tc.tags {
			t.Errorf("%+v IsTag() = %v", tc.u, got)
		}
	}
}

func TestParseRefLines(t *testing.T) {
	in := "refs/heads/main " + shaA + " refs/heads/main " + shaB + "\r\n\n" +
		"(delete) " + zero + " refs/heads/old " + shaB + "\n"
	got, err := ParseRefLines(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []RefUpdate{
		{"refs/heads/main", shaA, "refs/heads/main", shaB},
		{"(delete)", zero, "refs/heads/old", shaB},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got, err := ParseRefLines(strings.NewReader("")); err != nil || len(got) != 0 {
		t.Errorf("empty input: %v, %v", got, err)
	}
	_, err = ParseRefLines(strings.NewReader(in + "garbage\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "standard input line 4: ") {
		t.Errorf("error = %v, want it to name line 4", err)
	}
	_, err = ParseRefLines(strings.NewReader(strings.Repeat("x", maxLine+10)))
	if err == nil || !strings.Contains(err.Error(), "line 1 is longer than") {
		t.Errorf("long line: error = %v", err)
	}
}

func TestFromPreCommitEnv(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		ok      bool
		want    PreCommitPush
		wantErr string
	}{
		{name: "not set", env: map[string]string{EnvPreCommitRemoteName: "origin"}},
		{name: "update", ok: true, env: map[string]string{
			EnvPreCommitFromRef: shaB, EnvPreCommitToRef: shaA, EnvPreCommitRemoteName: "origin",
			EnvPreCommitRemoteURL: "git@example.com:r.git", EnvPreCommitLocalBranch: "refs/heads/main",
			EnvPreCommitRemoteBranch: "refs/heads/main",
		}, want: PreCommitPush{Remote: "origin", URL: "git@example.com:r.git",
			Update: RefUpdate{"refs/heads/main", shaA, "refs/heads/main", shaB}}},
		{name: "root commit reached: branch only", ok: true, env: map[string]string{
			EnvPreCommitRemoteName: "origin", EnvPreCommitLocalBranch: "refs/heads/main", EnvPreCommitRemoteBranch: "refs/heads/main",
		}, want: PreCommitPush{Remote: "origin", Update: RefUpdate{"refs/heads/main", "", "refs/heads/main", zero}}},
		{name: "to only", ok: true, env: map[string]string{EnvPreCommitToRef: shaA},
			want: PreCommitPush{Update: RefUpdate{shaA, shaA, shaA, zero}}},
		{name: "bad to", env: map[string]string{EnvPreCommitToRef: "HEAD"}, wantErr: "PRE_COMMIT_TO_REF=\"HEAD\" is not an object name"},
		{name: "bad from", env: map[string]string{EnvPreCommitToRef: shaA, EnvPreCommitFromRef: "main"}, wantErr: "PRE_COMMIT_FROM_REF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := FromPreCommitEnv(func(k string) string { return tc.env[k] })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || ok != tc.ok {
				t.Fatalf("ok = %v, err = %v; want ok = %v", ok, err, tc.ok)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
