package collectors

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNew(t *testing.T) {
	for _, name := range Formats() {
		t.Run(name, func(t *testing.T) {
			p, err := New(strings.ToUpper(name))
			if err != nil {
				t.Fatal(err)
			}
			if p.Format() != name {
				t.Errorf("Format() = %q, want %q", p.Format(), name)
			}
		})
	}
	t.Run("unknown", func(t *testing.T) {
		_, err := New("xunit")
		if err == nil || !strings.Contains(err.Error(), `unknown report format "xunit"`) || !strings.Contains(err.Error(), "cobertura, coverprofile, eslint") {
			t.Errorf("New(xunit) error = %v, want one listing the formats", err)
		}
	})
}

func TestFormats(t *testing.T) {
	want := []string{"cargotest", "checkstyle", "cobertura", "coverprofile", "eslint", "golangci", "gotest", "gradle", "junit", "lcov", "maven", "sarif", "tsc"}
	if diff := cmp.Diff(want, Formats()); diff != "" {
		t.Errorf("Formats() (-want +got):\n%s", diff)
	}
}

func TestParseErrorMessage(t *testing.T) {
	tests := []struct {
		name string
		err  *ParseError
		want string
	}{
		{"line", lineError("junit", "out/a.xml", 12, errors.New("unexpected EOF inside <testcase>")), "parse junit out/a.xml: line 12: unexpected EOF inside <testcase>"},
		{"offset", offsetError("eslint", "e.json", 40, errors.New("bad")), "parse eslint e.json: offset 40: bad"},
		{"nowhere", lineError("gotest", "t.json", 0, errors.New("no test events")), "parse gotest t.json: no test events"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("Error() = %q, want %q", got, tc.want)
			}
		})
	}
}
