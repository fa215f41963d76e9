package gitrepo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxAlternateDepth is how deep git follows alternates of alternates: the
// repository's own list is depth 0, and git ignores lists nested deeper than
// 5 ("nesting too deep").
const maxAlternateDepth = 5

// objectStores are the object directories git reads for a repository: its
// own first, then every alternate in the order git finds them.
type objectStores struct {
	dirs []string
	// missing are alternates that are listed but do not exist (git warns
	// and skips them): an object not found is likely in one of them.
	missing []string
}

// findObjectStores lists objectsDir and the alternate object directories it
// borrows from, as git does (objects/info/alternates, read by
// link_alt_odb_entries): one directory a line, blank lines and lines
// starting with # skipped, a line starting with a double quote unquoted as
// a C string, a relative path taken from the objects directory whose list
// names it, alternates of alternates followed up to maxAlternateDepth, and
// each directory listed once (by its real path). `git clone --shared` and
// `--reference` write such a list.
func findObjectStores(objectsDir string) (objectStores, error) {
	var s objectStores
	seen := map[string]bool{}
	var walk func(dir string, depth int) error
	walk = func(dir string, depth int) error {
		key := dir
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			key = real
		}
		if seen[key] {
			return nil
		}
		seen[key] = true
		s.dirs = append(s.dirs, dir)
		if depth > maxAlternateDepth {
			return nil
		}
		list := filepath.Join(dir, "info", "alternates")
		data, err := os.ReadFile(list)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", list, err)
		}
		for _, alt := range parseAlternates(data) {
			if !filepath.IsAbs(alt) {
				alt = filepath.Join(dir, alt)
			}
			alt = filepath.Clean(alt)
			if fi, err := os.Stat(alt); err != nil || !fi.IsDir() {
				s.missing = append(s.missing, alt)
				continue
			}
			if err := walk(alt, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(objectsDir, 0); err != nil {
		return objectStores{}, err
	}
	return s, nil
}

// parseAlternates reads the lines of an objects/info/alternates file.
func parseAlternates(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '"' {
			if unq, err := strconv.Unquote(line); err == nil {
				line = unq
			}
		}
		// git strips trailing slashes before it compares paths.
		if t := strings.TrimRight(line, "/"); t != "" {
			line = t
		}
		out = append(out, line)
	}
	return out
}

// missingHint says why an object may be missing, for an error message: ""
// unless an alternate object directory is listed but absent.
func (s objectStores) missingHint() string {
	if len(s.missing) == 0 {
		return ""
	}
	return fmt.Sprintf("the alternate object directory %s listed in objects/info/alternates does not exist", s.missing[0])
}
