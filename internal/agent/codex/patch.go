package codex

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// Patch is one apply_patch input: Codex's own patch format, which adds,
// updates (and moves) and deletes files:
//
//	*** Begin Patch
//	*** Add File: docs/new.md
//	+text
//	*** Update File: calc_test.go
//	*** Move to: calc2_test.go
//	@@ func TestSub(t *testing.T) {
//	-	if Sub(3, 1) != 2 {
//	+	if Sub(3, 1) != 3 {
//	*** Delete File: old_test.go
//	*** End Patch
type Patch struct {
	Files []PatchFile
}

// PatchFile is one file a patch touches.
type PatchFile struct {
	// Op is "add", "update" or "delete".
	Op     string
	Path   string
	MoveTo string
	// Content is an added file's lines.
	Content string
	Hunks   []Hunk
}

// Hunk is one change of an updated file: the lines before (context and
// removed) and after (context and added), located after the optional @@
// context line.
type Hunk struct {
	Context  string
	Old, New []string
	// EOF says the hunk ends at the end of the file.
	EOF bool
}

// ParsePatch reads a patch. It is lenient where Codex is (a heredoc
// wrapper, spaces around the markers) and fails where Codex would refuse the
// patch: such a call changes nothing.
func ParsePatch(text string) (*Patch, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "*** Begin Patch" {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, errors.New("apply_patch: no *** Begin Patch line")
	}
	p := &Patch{}
	var cur *PatchFile
	var hunk *Hunk
	flush := func() {
		if cur != nil && hunk != nil && (len(hunk.Old) > 0 || len(hunk.New) > 0 || hunk.Context != "") {
			cur.Hunks = append(cur.Hunks, *hunk)
		}
		hunk = nil
	}
	ended := false
	for _, l := range lines[start+1:] {
		t := strings.TrimSpace(l)
		switch {
		case t == "*** End Patch":
			ended = true
		case strings.HasPrefix(t, "*** Add File: "), strings.HasPrefix(t, "*** Update File: "), strings.HasPrefix(t, "*** Delete File: "):
			flush()
			op, path, _ := strings.Cut(strings.TrimPrefix(t, "*** "), " File: ")
			p.Files = append(p.Files, PatchFile{Op: strings.ToLower(op), Path: strings.TrimSpace(path)})
			cur = &p.Files[len(p.Files)-1]
			continue
		case strings.HasPrefix(t, "*** Move to: ") && cur != nil && cur.Op == "update":
			cur.MoveTo = strings.TrimSpace(strings.TrimPrefix(t, "*** Move to: "))
			continue
		case t == "*** End of File" && hunk != nil:
			hunk.EOF = true
			continue
		}
		if ended {
			break
		}
		if cur == nil {
			if t == "" {
				continue
			}
			return nil, fmt.Errorf("apply_patch: %q before the first file", agent.OneLine(l))
		}
		switch cur.Op {
		case "add":
			if !strings.HasPrefix(l, "+") {
				if t == "" {
					continue
				}
				return nil, fmt.Errorf("apply_patch: added file %s: line %q does not start with +", cur.Path, agent.OneLine(l))
			}
			cur.Content += l[1:] + "\n"
		case "delete":
			if t != "" {
				return nil, fmt.Errorf("apply_patch: deleted file %s: unexpected line %q", cur.Path, agent.OneLine(l))
			}
		case "update":
			if strings.HasPrefix(l, "@@") {
				flush()
				hunk = &Hunk{Context: strings.TrimSpace(strings.TrimPrefix(l, "@@"))}
				continue
			}
			if hunk == nil {
				hunk = &Hunk{}
			}
			switch {
			case l == "":
				hunk.Old, hunk.New = append(hunk.Old, ""), append(hunk.New, "")
			case l[0] == ' ':
				hunk.Old, hunk.New = append(hunk.Old, l[1:]), append(hunk.New, l[1:])
			case l[0] == '-':
				hunk.Old = append(hunk.Old, l[1:])
			case l[0] == '+':
				hunk.New = append(hunk.New, l[1:])
			default:
				return nil, fmt.Errorf("apply_patch: updated file %s: line %q is not context, - or +", cur.Path, agent.OneLine(l))
			}
		}
	}
	flush()
	if !ended {
		return nil, errors.New("apply_patch: no *** End Patch line")
	}
	if len(p.Files) == 0 {
		return nil, errors.New("apply_patch: the patch changes no file")
	}
	return p, nil
}

// Changes are the patch's files as neutral changes: an added file's content,
// an updated file's hunks applied to its content, a deletion.
func (p *Patch) Changes() []agent.FileChange {
	var out []agent.FileChange
	for _, f := range p.Files {
		switch f.Op {
		case "add":
			content := []byte(f.Content)
			out = append(out, agent.FileChange{Path: f.Path, Apply: func([]byte, bool) ([]byte, error) { return content, nil }})
		case "delete":
			out = append(out, agent.FileChange{Path: f.Path, Delete: true})
		case "update":
			hunks := f.Hunks
			out = append(out, agent.FileChange{Path: f.Path, MoveTo: f.MoveTo, Apply: func(cur []byte, existed bool) ([]byte, error) {
				if !existed {
					return nil, agent.ErrNoChange
				}
				return applyHunks(string(cur), hunks)
			}})
		}
	}
	return out
}

// applyHunks applies an updated file's hunks in order, each found after the
// previous one as Codex finds it: the lines exactly, else ignoring trailing
// white space, else ignoring surrounding white space. A hunk that is not
// found fails the patch: it changes nothing.
func applyHunks(cur string, hunks []Hunk) ([]byte, error) {
	trailingNL := strings.HasSuffix(cur, "\n")
	lines := strings.Split(strings.TrimSuffix(cur, "\n"), "\n")
	if cur == "" {
		lines = nil
	}
	pos := 0
	for _, h := range hunks {
		if h.Context != "" {
			i := find(lines, []string{h.Context}, pos, false)
			if i < 0 {
				return nil, agent.ErrNoChange
			}
			pos = i + 1
		}
		if len(h.Old) == 0 {
			at := len(lines)
			if !h.EOF && h.Context != "" {
				at = pos
			}
			lines = append(lines[:at:at], append(append([]string(nil), h.New...), lines[at:]...)...)
			pos = at + len(h.New)
			continue
		}
		old, repl := h.Old, h.New
		i := find(lines, old, pos, h.EOF)
		if i < 0 && len(old) > 0 && old[len(old)-1] == "" {
			// A trailing empty line in the hunk stands for the file's
			// last newline.
			old, repl = old[:len(old)-1], trimLastEmpty(repl)
			i = find(lines, old, pos, h.EOF)
		}
		if i < 0 {
			return nil, agent.ErrNoChange
		}
		lines = append(lines[:i:i], append(append([]string(nil), repl...), lines[i+len(old):]...)...)
		pos = i + len(repl)
	}
	out := strings.Join(lines, "\n")
	if trailingNL || len(lines) > 0 {
		out += "\n"
	}
	return []byte(out), nil
}

func trimLastEmpty(l []string) []string {
	if len(l) > 0 && l[len(l)-1] == "" {
		return l[:len(l)-1]
	}
	return l
}

// find returns where pattern starts in lines at or after pos (at the end
// for eof), matching exactly, then without trailing and then surrounding
// white space; -1 when it is not there.
func find(lines, pattern []string, pos int, eof bool) int {
	if len(pattern) == 0 {
		return pos
	}
	for _, norm := range []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.TrimRight(s, " \t") },
		strings.TrimSpace,
	} {
		from := pos
		if eof && len(lines)-len(pattern) >= 0 {
			from = len(lines) - len(pattern)
		}
		for i := from; i+len(pattern) <= len(lines); i++ {
			match := true
			for j, p := range pattern {
				if norm(lines[i+j]) != norm(p) {
					match = false
					break
				}
			}
			if match {
				return i
			}
		}
	}
	return -1
}
