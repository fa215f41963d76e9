// Package patch reads unified diffs (as `git diff`, `git format-patch` and `diff -u`
// write them) into per-file old and new texts, so the analyzer can work on a patch
// with no repository.
//
// A hunk shows only part of a file. Read rebuilds each side by placing every hunk
// line at its line number and leaving the lines no hunk shows blank, so line numbers
// stay true and the regions the diff did not touch are empty on both sides alike.
package patch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// File is one file of a patch.
type File struct {
	// OldPath and NewPath are repository-relative; OldPath is "" for an added
	// file and NewPath is "" for a deleted one.
	OldPath, NewPath string
	// Old and New are the two sides rebuilt from the hunks.
	Old, New []byte
	// Binary is set for "Binary files ... differ" and GIT binary patches.
	Binary bool
	// Complete reports whether the texts are whole files rather than fragments:
	// an added or deleted file's hunk holds all of it.
	Complete bool
}

// maxLine bounds a line number taken from a hunk header, and maxSpan the
// lines a whole patch may place its hunks across (the unknown lines before
// and between hunks are kept as empty ones, to keep line numbers): a hostile
// header of a few bytes must not make Read allocate hundreds of megabytes.
const (
	maxLine = 10_000_000
	maxSpan = 2_000_000
)

// DefaultMaxBytes caps a patch's size; RALPH_GATE_MAX_PATCH_BYTES (the
// workflow's, never the change's) overrides it.
const DefaultMaxBytes = 64 << 20

func maxBytes() int64 {
	if v := os.Getenv("RALPH_GATE_MAX_PATCH_BYTES"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			return n
		}
	}
	return DefaultMaxBytes
}

// Read parses a unified diff. name is used in error messages. A patch that holds no
// file diff at all is an error: an empty patch must not read as a clean one.
func Read(name string, r io.Reader) ([]File, error) {
	limit := maxBytes()
	lr := &io.LimitedReader{R: r, N: limit + 1}
	br := bufio.NewReaderSize(lr, 64<<10)
	var (
		files  []File
		cur    *fileBuilder
		lineNo int
		span   int // lines placed so far, padding included, over all files
	)
	flush := func() {
		if cur != nil {
			files = append(files, cur.build())
			cur = nil
		}
	}
	for {
		raw, err := br.ReadString('\n')
		if lr.N <= 0 {
			return nil, fmt.Errorf("read patch %s: over the cap of %d bytes (RALPH_GATE_MAX_PATCH_BYTES)", name, limit)
		}
		if len(raw) == 0 && err != nil {
			if err != io.EOF {
				return nil, fmt.Errorf("read patch %s: %w", name, err)
			}
			break
		}
		lineNo++
		line := strings.TrimSuffix(strings.TrimSuffix(raw, "\n"), "\r")
		switch {
		case cur != nil && cur.inHunk():
			cur.span = &span
			if err := cur.hunkLine(line); err != nil {
				return nil, fmt.Errorf("read patch %s: line %d: %w", name, lineNo, err)
			}
		case strings.HasPrefix(line, "diff --git "):
			flush()
			cur = newBuilder()
			cur.oldPath, cur.newPath = parseGitHeader(line[len("diff --git "):])
		case strings.HasPrefix(line, "--- "):
			if cur == nil || cur.sawHunk {
				flush()
				cur = newBuilder()
			}
			cur.oldPath = diffPath(line[4:])
			cur.sawMinus = true
		case strings.HasPrefix(line, "+++ ") && cur != nil && cur.sawMinus:
			cur.newPath = diffPath(line[4:])
		case strings.HasPrefix(line, "@@ ") && cur != nil:
			if err := cur.startHunk(line); err != nil {
				return nil, fmt.Errorf("read patch %s: line %d: %w", name, lineNo, err)
			}
		case cur != nil && strings.HasPrefix(line, "new file mode"):
			cur.added = true
		case cur != nil && strings.HasPrefix(line, "deleted file mode"):
			cur.deleted = true
		case cur != nil && strings.HasPrefix(line, "rename from "):
			cur.oldPath = line[len("rename from "):]
		case cur != nil && strings.HasPrefix(line, "rename to "):
			cur.newPath = line[len("rename to "):]
		case cur != nil && (strings.HasPrefix(line, "Binary files ") || line == "GIT binary patch"):
			cur.binary = true
		}
		if err == io.EOF {
			break
		}
	}
	if cur != nil && cur.inHunk() {
		return nil, fmt.Errorf("read patch %s: truncated: the last hunk of %s ends early", name, orName(cur.newPath, cur.oldPath))
	}
	flush()
	if len(files) == 0 {
		return nil, fmt.Errorf("read patch %s: no file diffs found (is it a unified diff?)", name)
	}
	for i := range files {
		if files[i].OldPath == "" && files[i].NewPath == "" {
			return nil, fmt.Errorf("read patch %s: a file diff has no file name", name)
		}
	}
	return files, nil
}

type fileBuilder struct {
	oldPath, newPath string
	added, deleted   bool
	binary           bool
	sawMinus         bool
	sawHunk          bool
	old, new         []string // index = line number - 1
	oldLeft, newLeft int      // lines still expected in the current hunk
	oldAt, newAt     int      // next line number on each side
	span             *int     // lines placed by the whole patch (Read's)
}

func newBuilder() *fileBuilder { return &fileBuilder{} }

func (b *fileBuilder) inHunk() bool { return b.oldLeft > 0 || b.newLeft > 0 }

func (b *fileBuilder) startHunk(line string) error {
	// @@ -l[,s] +l[,s] @@ optional section heading
	end := strings.Index(line[3:], " @@")
	if end < 0 {
		return fmt.Errorf("malformed hunk header %q", line)
	}
	fields := strings.Fields(line[3 : 3+end])
	if len(fields) != 2 || !strings.HasPrefix(fields[0], "-") || !strings.HasPrefix(fields[1], "+") {
		return fmt.Errorf("malformed hunk header %q", line)
	}
	os, oc, err1 := parseRange(fields[0][1:])
	ns, nc, err2 := parseRange(fields[1][1:])
	if err1 != nil || err2 != nil {
		return fmt.Errorf("malformed hunk header %q", line)
	}
	b.sawHunk = true
	b.oldLeft, b.newLeft = oc, nc
	b.oldAt, b.newAt = os, ns
	if oc == 0 {
		b.oldAt = os + 1 // "-0,0" or "-5,0": the hunk adds after line os
	}
	if nc == 0 {
		b.newAt = ns + 1
	}
	return nil
}

func parseRange(s string) (start, count int, err error) {
	count = 1
	if i := strings.IndexByte(s, ','); i >= 0 {
		count, err = strconv.Atoi(s[i+1:])
		if err != nil {
			return 0, 0, err
		}
		s = s[:i]
	}
	start, err = strconv.Atoi(s)
	if err != nil {
		return 0, 0, err
	}
	if start < 0 || count < 0 || start > maxLine || count > maxLine {
		return 0, 0, fmt.Errorf("line number out of range")
	}
	return start, count, nil
}

func (b *fileBuilder) hunkLine(line string) error {
	if line == "" {
		line = " " // some tools strip the space of an empty context line
	}
	switch line[0] {
	case ' ':
		if b.oldLeft == 0 || b.newLeft == 0 {
			return fmt.Errorf("hunk has more context lines than its header says")
		}
		if err := b.put(&b.old, &b.oldAt, &b.oldLeft, line[1:]); err != nil {
			return err
		}
		return b.put(&b.new, &b.newAt, &b.newLeft, line[1:])
	case '-':
		if b.oldLeft == 0 {
			return fmt.Errorf("hunk removes more lines than its header says")
		}
		return b.put(&b.old, &b.oldAt, &b.oldLeft, line[1:])
	case '+':
		if b.newLeft == 0 {
			return fmt.Errorf("hunk adds more lines than its header says")
		}
		return b.put(&b.new, &b.newAt, &b.newLeft, line[1:])
	case '\\': // "\ No newline at end of file"
	default:
		return fmt.Errorf("hunk ended early: unexpected line %q", truncate(line))
	}
	return nil
}

func (b *fileBuilder) put(side *[]string, at, left *int, text string) error {
	n := *at
	if n < 1 {
		n = 1
	}
	if grow := n - len(*side); grow > 0 && b.span != nil {
		if *b.span+grow > maxSpan {
			return fmt.Errorf("its hunk headers place lines across more than %d lines: malformed, or files too large to analyze from a patch", maxSpan)
		}
		*b.span += grow
	}
	for len(*side) < n {
		*side = append(*side, "")
	}
	(*side)[n-1] = text
	*at = n + 1
	*left--
	return nil
}

func (b *fileBuilder) build() File {
	f := File{OldPath: b.oldPath, NewPath: b.newPath, Binary: b.binary}
	if b.added || f.OldPath == "/dev/null" {
		f.OldPath = ""
	}
	if b.deleted || f.NewPath == "/dev/null" {
		f.NewPath = ""
	}
	f.Old = join(b.old)
	f.New = join(b.new)
	f.Complete = !b.binary && (f.OldPath == "" || f.NewPath == "")
	return f
}

func join(lines []string) []byte {
	if len(lines) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for _, l := range lines {
		buf.WriteString(l)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// parseGitHeader splits "a/x b/y" (names may be quoted) into the two paths.
func parseGitHeader(s string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		if a, rest, ok := unquoteFirst(s); ok {
			return stripPrefix(a), diffPath(strings.TrimSpace(rest))
		}
	}
	// Unquoted: the names are equal in the common case; split in the middle.
	if i := strings.Index(s, " b/"); i >= 0 {
		return stripPrefix(s[:i]), stripPrefix(s[i+1:])
	}
	f := strings.Fields(s)
	if len(f) == 2 {
		return stripPrefix(f[0]), stripPrefix(f[1])
	}
	return "", ""
}

func unquoteFirst(s string) (string, string, bool) {
	for i := 1; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '"' {
			u, err := strconv.Unquote(s[:i+1])
			if err != nil {
				return "", "", false
			}
			return u, s[i+1:], true
		}
	}
	return "", "", false
}

// diffPath reads the name of a ---/+++ line: strips a/ b/ prefixes, quotes and a
// trailing timestamp (diff -u writes "name\tdate").
func diffPath(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	if s == "/dev/null" {
		return s
	}
	return stripPrefix(s)
}

func stripPrefix(s string) string {
	if strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/") {
		return s[2:]
	}
	return s
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func orName(a, b string) string {
	if a != "" && a != "/dev/null" {
		return a
	}
	return b
}
