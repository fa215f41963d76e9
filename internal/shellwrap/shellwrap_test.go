package shellwrap

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnwrap(t *testing.T) {
	for cmd, want := range map[string]string{
		"go test ./...":                          "go test ./...",
		"env GOFLAGS=-v CI=1 go test ./...":      "go test ./...",
		"env -u HOME -i go test":                 "go test",
		"sudo -u ci -E go test ./...":            "go test ./...",
		"time -p pytest -q":                      "pytest -q", // -p takes no value
		"timeout -s KILL 10m npm test":           "npm test",
		"timeout 30 cargo test":                  "cargo test",
		"nice -n 10 ionice -c 3 make test":       "make test",
		"nohup setsid -f chronic go test":        "go test",
		"stdbuf -oL go test":                     "go test",
		"stdbuf -o L go test":                    "go test",
		"xvfb-run -a -s '-screen 0' npm test":    "npm test",
		"npx -y jest --ci":                       "jest --ci",
		"uv run pytest":                          "pytest",
		"poetry run python -m pytest":            "python -m pytest",
		"bundle exec rspec":                      "rspec",
		"uv pip install x":                       "uv pip install x",
		"command -v pytest":                      "command -v pytest", // a lookup
		"command go test":                        "go test",
		"exec -- go test":                        "go test",
		"/usr/bin/sudo /usr/bin/env A=1 go test": "go test",
		"dotenv -e .env.test -- vitest run":      "vitest run",
		"sudo":                                   "",
	} {
		got := strings.Join(Unwrap(strings.Fields(strings.ReplaceAll(cmd, "'-screen 0'", "-screen0"))), " ")
		if got != want {
			t.Errorf("Unwrap(%s) = %q, want %q", cmd, got, want)
		}
	}
}

func TestSkip(t *testing.T) {
	type w struct {
		v   string
		dyn bool
	}
	val := func(x w) string {
		if x.dyn {
			return "\x00"
		}
		return x.v
	}
	for _, c := range []struct {
		words []w
		n     int
		ok    bool
	}{
		{[]w{{v: "sudo"}, {v: "-u"}, {v: "root"}, {v: "rm"}}, 3, true},
		{[]w{{v: "nice"}, {dyn: true}, {v: "rm"}}, 1, true}, // the unknown word is the command
		{[]w{{v: "rm"}, {v: "x"}}, 0, false},
		{[]w{{v: "uv"}}, 0, false},
		{nil, 0, false},
	} {
		n, ok := Skip(c.words, val)
		if n != c.n || ok != c.ok {
			t.Errorf("Skip(%+v) = %d, %v; want %d, %v", c.words, n, ok, c.n, c.ok)
		}
	}
	if diff := cmp.Diff("go", Name(`C:\x\go.exe`[len(`C:\x\`):])); diff != "" {
		t.Error(diff)
	}
}

func FuzzUnwrap(f *testing.F) {
	for _, s := range []string{"env A=1 sudo -u x timeout 5 go test", "uv run", "command -v x", "timeout", "xvfb-run --server-args"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words := strings.Fields(s)
		got := Unwrap(words)
		if len(got) > len(words) {
			t.Fatalf("Unwrap(%q) = %q: longer than its input", s, got)
		}
		if len(got) > 0 && strings.Join(words[len(words)-len(got):], "\x00") != strings.Join(got, "\x00") {
			t.Fatalf("Unwrap(%q) = %q: not a suffix", s, got)
		}
	})
}
