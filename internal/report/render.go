package report

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// Format names an output format of --format.
type Format string

// The output formats.
const (
	Text     Format = "text"
	JSON     Format = "json"
	Markdown Format = "markdown"
	SARIF    Format = "sarif"
	GitHub   Format = "github"
	// CodeClimate is GitLab Code Quality's report (codeclimate.go).
	CodeClimate Format = "codeclimate"
	// RDJSON is reviewdog's Diagnostic Format (rdjson.go).
	RDJSON Format = "rdjson"
)

// renderers are the formats in the order help text shows them, each with
// the function that writes it: a new format is a file and a line here.
var renderers = []struct {
	format Format
	render func(io.Writer, *gate.Report, Options) error
}{
	{Text, renderText},
	{JSON, renderJSON},
	{Markdown, renderMarkdown},
	{SARIF, renderSARIF},
	{GitHub, renderGitHub},
	{CodeClimate, renderCodeClimate},
	{RDJSON, renderRDJSON},
}

// Formats lists every format in the order help text shows them.
var Formats = func() []Format {
	out := make([]Format, len(renderers))
	for i, r := range renderers {
		out[i] = r.format
	}
	return out
}()

// ParseFormat reads a format name as --format takes it, case-insensitively.
func ParseFormat(s string) (Format, error) {
	n := Format(strings.ToLower(strings.TrimSpace(s)))
	for _, f := range Formats {
		if f == n {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q (want %s)", s, formatList())
}

func formatList() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Options tune how a report is rendered.
type Options struct {
	// Color turns on ANSI colours in the text format; other formats ignore it.
	Color bool
	// Verbose adds each finding's id, rule, evidence and measured values to the
	// text format.
	Verbose bool
	// RepoRoot, when set, is the repository's directory on disk: absolute file
	// paths under it are shown relative to it. Empty means paths are used as the
	// report gives them (made relative all the same).
	RepoRoot string
	// BlobURL, when set, links each finding's location in the markdown
	// format: the file's path and "#L" and the line are appended to it
	// ("https://github.com/o/r/blob/<sha>/"; see BlobURL).
	BlobURL string
}

// BlobURL is the prefix of links to files at commit head on the forge the
// environment names, or "" when it names none or head is not a full commit
// name: GitHub Actions (GITHUB_SERVER_URL, GITHUB_REPOSITORY) or GitLab CI
// (CI_PROJECT_URL). A value that is not a plain http(s) URL gives no links.
func BlobURL(getenv func(string) string, head string) string {
	if len(head) != 40 && len(head) != 64 || strings.Trim(head, "0123456789abcdef") != "" {
		return ""
	}
	var base, blob string
	switch {
	case getenv("GITHUB_SERVER_URL") != "" && getenv("GITHUB_REPOSITORY") != "":
		base, blob = strings.TrimSuffix(getenv("GITHUB_SERVER_URL"), "/")+"/"+getenv("GITHUB_REPOSITORY"), "/blob/"
	case getenv("CI_PROJECT_URL") != "":
		base, blob = strings.TrimSuffix(getenv("CI_PROJECT_URL"), "/"), "/-/blob/"
	default:
		return ""
	}
	if !strings.HasPrefix(base, "https://") && !strings.HasPrefix(base, "http://") || strings.ContainsAny(base, " \t\r\n\"'<>()[]`|\\") {
		return ""
	}
	return base + blob + head + "/"
}

// Render writes rep to w in format f.
func Render(w io.Writer, f Format, rep *gate.Report, opt Options) error {
	if rep == nil {
		return errors.New("render report: no report")
	}
	for _, r := range renderers {
		if r.format != f {
			continue
		}
		if err := r.render(w, rep, opt); err != nil {
			return fmt.Errorf("render %s report: %w", f, err)
		}
		return nil
	}
	return fmt.Errorf("render report: unknown format %q (want %s)", string(f), formatList())
}

// errWriter keeps the first write error so renderers can write line after line
// and check once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err != nil {
		return
	}
	_, e.err = fmt.Fprintf(e.w, format, args...)
}

func (e *errWriter) write(s string) {
	if e.err != nil {
		return
	}
	_, e.err = io.WriteString(e.w, s)
}

// toolName is the name every format gives the tool.
const toolName = "ralph-gate"
