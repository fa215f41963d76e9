package affected

import (
	"path"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// mapFiles is a tree held in a map, for the workspace reader.
type mapFiles map[string]string

func (m mapFiles) Read(name string) ([]byte, bool, error) {
	b, ok := m[name]
	return []byte(b), ok, nil
}

func (m mapFiles) Dirs(dir string) ([]string, error) {
	seen := map[string]bool{}
	prefix := dir + "/"
	if dir == "." {
		prefix = ""
	}
	for name := range m {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		rest := strings.TrimPrefix(name, prefix)
		if i := strings.IndexByte(rest, '/'); i > 0 {
			seen[path.Join(dir, rest[:i])] = true
		}
	}
	var out []string
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out, nil
}

func (m mapFiles) Walk(dir string, fn func(name string) error) error {
	var names []string
	prefix := dir + "/"
	if dir == "." {
		prefix = ""
	}
	for name := range m {
		if strings.HasPrefix(name, prefix) && !strings.Contains(name, "/node_modules/") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if err := fn(n); err != nil {
			return err
		}
	}
	return nil
}

var monorepo = mapFiles{
	"package.json":                  `{"name": "root", "workspaces": ["packages/*", "apps/**", "!packages/ignored"]}`,
	"packages/core/package.json":    `{"name": "@x/core"}`,
	"packages/core/src/index.ts":    "",
	"packages/ui/package.json":      `{"name": "@x/ui", "dependencies": {"@x/core": "workspace:*", "react": "18"}}`,
	"packages/util/package.json":    `{"name": "@x/util", "devDependencies": {"left-pad": "1"}}`,
	"packages/ignored/package.json": `{"name": "@x/ignored"}`,
	"apps/web/site/package.json":    `{"name": "site", "peerDependencies": {"@x/ui": "*"}}`,
	"apps/docs/README.md":           "",
	// util imports core without declaring it; web's site reads a file above
	// its workspace.
	"packages/util/index.ts":                "import { x } from '@x/core/src/index'\n",
	"packages/util/node_modules/y/index.js": "import '../../../apps/web'\n",
	"apps/web/site/load.js":                 "fs.readFileSync(path.join(__dirname, '../../../fixtures/a.json'))\n",
}

func TestWorkspaces(t *testing.T) {
	ws, err := Workspaces(monorepo)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, w := range ws {
		dirs = append(dirs, w.Dir)
	}
	if want := []string{"apps/web/site", "packages/core", "packages/ui", "packages/util"}; !reflect.DeepEqual(dirs, want) {
		t.Fatalf("workspaces %v, want %v", dirs, want)
	}
	tests := []struct {
		changed []string
		units   []string
		all     bool
	}{
		{[]string{"packages/core/src/index.ts"}, []string{"@x/core", "@x/ui", "@x/util", "site"}, false},
		{[]string{"packages/util/index.js"}, []string{"@x/util", "site"}, false},
		{[]string{"packages/ui/button.tsx"}, []string{"@x/ui", "site"}, false},
		{[]string{"apps/web/site/page.tsx"}, []string{"site"}, false},
		{[]string{"package-lock.json"}, nil, true},
		{[]string{"packages/util/a.js", "tsconfig.base.json"}, nil, true},
		{[]string{"packages/ignored/x.js"}, nil, true},
	}
	for _, tt := range tests {
		s := AffectedWorkspaces(ws, tt.changed)
		if s.All != tt.all || !tt.all && !reflect.DeepEqual(s.Units, tt.units) {
			t.Errorf("%v: All %v (%s) Units %v, want All %v Units %v", tt.changed, s.All, s.Why, s.Units, tt.all, tt.units)
		}
	}
}

func TestWorkspacesForms(t *testing.T) {
	pnpm := mapFiles{
		"package.json":        `{"name": "root"}`,
		"pnpm-workspace.yaml": "packages:\n  - 'libs/*'\n",
		"libs/a/package.json": `{"name": "a"}`,
	}
	ws, err := Workspaces(pnpm)
	if err != nil || len(ws) != 1 || ws[0].Name != "a" {
		t.Fatalf("pnpm-workspace.yaml: %v %v", ws, err)
	}
	obj := mapFiles{
		"package.json":        `{"workspaces": {"packages": ["libs/*"]}}`,
		"libs/b/package.json": `{"name": "b"}`,
	}
	if ws, err := Workspaces(obj); err != nil || len(ws) != 1 || ws[0].Name != "b" {
		t.Fatalf(`{"packages": [...]}: %v %v`, ws, err)
	}
	if ws, err := Workspaces(mapFiles{"package.json": `{"name": "single"}`}); err != nil || ws != nil {
		t.Fatalf("no workspaces: %v %v", ws, err)
	}
	for name, files := range map[string]mapFiles{
		"broken package.json":   {"package.json": `{"workspaces": [`},
		"workspaces not a list": {"package.json": `{"workspaces": 3}`},
		"broken pnpm yaml":      {"pnpm-workspace.yaml": "packages: [\n"},
		"broken workspace json": {"package.json": `{"workspaces": ["p/*"]}`, "p/x/package.json": "{"},
	} {
		if _, err := Workspaces(files); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestAffectedPython(t *testing.T) {
	tests := []struct {
		changed []string
		dirs    []string
		all     bool
	}{
		{[]string{"tests/test_api.py"}, []string{"tests/test_api.py"}, false},
		{[]string{"tests/unit/conftest.py", "tests/unit/test_x.py", "tests/test_y.py"}, []string{"tests/test_y.py", "tests/unit"}, false},
		{[]string{"pkg/api_test.py"}, []string{"pkg/api_test.py"}, false},
		{[]string{"src/pkg/api.py"}, nil, true},
		{[]string{"conftest.py"}, nil, true},
		{[]string{"tests/test_api.py", "pyproject.toml"}, nil, true},
		{[]string{"tests/helpers.py"}, nil, true},
		{[]string{"tests/data/sample.json"}, nil, true},
	}
	tree := mapFiles{
		"tests/test_api.py":    "def test_api(): pass\n",
		"tests/test_y.py":      "def test_y(): pass\n",
		"tests/unit/test_x.py": "def test_x(): pass\n",
		"tests/test_shared.py": "def helper(): pass\n",
		"tests/test_uses.py":   "from tests.test_shared import helper\n# see test_api_v2 and xtest_api\n",
		"pkg/api_test.py":      "def test_it(): pass\n",
	}
	tests = append(tests, struct {
		changed []string
		dirs    []string
		all     bool
	}{[]string{"tests/test_shared.py"}, nil, true})
	for _, tt := range tests {
		s, err := AffectedPython(tree, tt.changed)
		if err != nil {
			t.Fatal(err)
		}
		if s.All != tt.all || !tt.all && !reflect.DeepEqual(s.Dirs, tt.dirs) {
			t.Errorf("%v: All %v (%s) Dirs %v, want All %v Dirs %v", tt.changed, s.All, s.Why, s.Dirs, tt.all, tt.dirs)
		}
	}
}

func FuzzWorkspaces(f *testing.F) {
	f.Add(`{"workspaces": ["packages/*", "!packages/x", "apps/**"]}`, "packages:\n  - libs/*\n", `{"name": "a", "dependencies": {"b": "1"}}`, "packages/a/x.js")
	f.Add(`{"workspaces": {"packages": ["**"]}}`, "", `{"name": "b"}`, "package.json")
	f.Fuzz(func(t *testing.T, root, pnpm, pkg, changed string) {
		files := mapFiles{
			"package.json":            root,
			"pnpm-workspace.yaml":     pnpm,
			"packages/a/package.json": pkg,
			"packages/b/package.json": `{"name": "b"}`,
			"apps/c/d/package.json":   `{"name": "c", "dependencies": {"a": "*"}}`,
		}
		ws, err := Workspaces(files)
		if err != nil {
			return
		}
		s := AffectedWorkspaces(ws, strings.Split(changed, "\n"))
		if s.All && s.Why == "" {
			t.Fatal("everything affected, with no reason")
		}
		for _, d := range s.Dirs {
			found := false
			for _, w := range ws {
				found = found || w.Dir == d
			}
			if !found {
				t.Fatalf("affected dir %q is not a workspace", d)
			}
		}
	})
}
