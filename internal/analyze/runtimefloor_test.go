package analyze

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestSpecFloor(t *testing.T) {
	for spec, want := range map[string]string{
		">=3.7":                 "3.7",
		">= 3.6":                "3.6",
		">=3.8, <4":             "3.8",
		">=3.6, !=3.7.*, >=3.9": "3.9",
		"~=3.10":                "3.10",
		"^3.8":                  "3.8",
		"~3.8":                  "3.8",
		"==3.11.*":              "3.11",
		">3.6":                  "3.6",
		"<4":                    "",
		"":                      "",
		">=three":               "",
		">=3.8 || >=3.9":        "3.9",
	} {
		if got := specFloor(spec); got != want {
			t.Errorf("specFloor(%q) = %q, want %q", spec, got, want)
		}
	}
}

func TestPythonFloor(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"setup.cfg", "[options]\npython_requires = >= 3.7\n", "3.7"},
		{"setup.cfg", "[metadata]\npython_requires = >= 3.7\n", ""},
		{"pyproject.toml", "[project]\nname = \"x\"\nrequires-python = \">=3.9\"\n", "3.9"},
		{"pyproject.toml", "[tool.poetry.dependencies]\npython = \"^3.10\"\n", "3.10"},
		{"pyproject.toml", "[project]\nname = \"x\"\n", ""},
		{"pyproject.toml", "[project\nbroken", ""},
	} {
		if got := pythonFloor(c.name, []byte(c.data)); got != c.want {
			t.Errorf("pythonFloor(%s, %q) = %q, want %q", c.name, c.data, got, c.want)
		}
	}
}

func TestPomRelease(t *testing.T) {
	for _, c := range []struct{ pom, want string }{
		{"<project><properties><maven.compiler.release>11</maven.compiler.release></properties></project>", "11"},
		{"<project><properties><maven.compiler.source>1.8</maven.compiler.source></properties></project>", "8"},
		{"<project><properties><java.version>17</java.version><maven.compiler.release>${java.version}</maven.compiler.release></properties></project>", "17"},
		{"<project><build><plugins><plugin><artifactId>maven-compiler-plugin</artifactId><configuration><release>21</release></configuration></plugin></plugins></build>" +
			"<properties><maven.compiler.release>8</maven.compiler.release></properties></project>", "21"},
		{"<project><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><configuration><release>21</release></configuration></plugin></plugins></build></project>", ""},
		{"<project><properties><maven.compiler.release>${unknown}</maven.compiler.release></properties></project>", ""},
		{"<project><properties>", ""},
		{"<project/>", ""},
	} {
		if got := pomRelease([]byte(c.pom)); got != c.want {
			t.Errorf("pomRelease(%s) = %q, want %q", c.pom, got, c.want)
		}
	}
}

func TestRuntimeFloorNearestProject(t *testing.T) {
	files := map[string]string{
		"setup.cfg":             "[options]\npython_requires = >= 3.6\n",
		"pkgs/a/pyproject.toml": "[project]\nrequires-python = \">=3.9\"\n",
		"pkgs/b/pyproject.toml": "[project]\nname = \"b\"\n",
		"pom.xml":               "<project><properties><maven.compiler.release>11</maven.compiler.release></properties></project>",
		"mod/pom.xml":           "<project><artifactId>mod</artifactId></project>",
		"gomod/go.mod":          "module example.com/x\n\ngo 1.22.3\n",
		"mod/sub/pom.xml":       "<project><properties><maven.compiler.release>17</maven.compiler.release></properties></project>",
	}
	read := func(p string) []byte {
		if s, ok := files[p]; ok {
			return []byte(s)
		}
		return nil
	}
	for _, c := range []struct {
		lang       testscan.Lang
		p          string
		want, file string
	}{
		{testscan.Python, "tests/test_x.py", "3.6", "setup.cfg"},
		{testscan.Python, "pkgs/a/tests/test_x.py", "3.9", "pkgs/a/pyproject.toml"},
		// The nearest project states nothing: the root's floor is not its.
		{testscan.Python, "pkgs/b/tests/test_x.py", "", ""},
		// A module inherits its parent's compiler settings.
		{testscan.Java, "mod/src/test/java/XTest.java", "11", "pom.xml"},
		{testscan.Java, "mod/sub/src/test/java/XTest.java", "17", "mod/sub/pom.xml"},
		{testscan.Go, "x_test.go", "", ""},
		{testscan.Go, "gomod/pkg/x_test.go", "1.22.3", "gomod/go.mod"},
	} {
		v, f := runtimeFloor(c.lang, c.p, read)
		if v != c.want || f != c.file {
			t.Errorf("runtimeFloor(%s, %s) = %q, %q; want %q, %q", c.lang, c.p, v, f, c.want, c.file)
		}
	}
}

func FuzzSpecFloor(f *testing.F) {
	f.Add(">=3.6, !=3.7.*, <4")
	f.Add("^3.8 || ~=3.9")
	f.Fuzz(func(t *testing.T, spec string) {
		if v := specFloor(spec); v != "" {
			if _, ok := testscan.CompareVersions(v, "0"); !ok {
				t.Fatalf("specFloor(%q) = %q, not a version", spec, v)
			}
		}
	})
}

func FuzzPomRelease(f *testing.F) {
	f.Add([]byte("<project><properties><maven.compiler.release>${a}</maven.compiler.release><a>${b}</a><b>${a}</b></properties></project>"))
	f.Add([]byte("<project><build><plugins><plugin><artifactId>maven-compiler-plugin</artifactId><configuration><source>1.8</source></configuration></plugin></plugins></build></project>"))
	f.Fuzz(func(t *testing.T, pom []byte) {
		if v := pomRelease(pom); v != "" {
			if _, ok := testscan.CompareVersions(v, "0"); !ok {
				t.Fatalf("pomRelease = %q, not a version", v)
			}
		}
	})
}

func TestNeverBuildsFrom(t *testing.T) {
	for _, c := range []struct {
		expr  string
		minor int
		want  bool
	}{
		{"!go1.21", 21, true},
		{"!go1.21", 22, true},
		{"!go1.22", 21, false},
		{"go1.18 && !go1.21", 21, true},
		{"go1.18 && !go1.23", 21, false},
		{"linux && !go1.21", 21, true},
		{"linux || !go1.21", 21, false},
		{"(linux && !go1.21) || (!linux && !go1.20)", 21, true},
		{"go1.21", 21, false},
		{"ignore", 21, false},
		{"a && b && c && d && e && f && g && !go1.21", 21, false}, // too many tags to try
		{"!(", 21, false},
	} {
		if got := neverBuildsFrom(c.expr, c.minor); got != c.want {
			t.Errorf("neverBuildsFrom(%q, %d) = %v, want %v", c.expr, c.minor, got, c.want)
		}
	}
}

func TestGoBuildGone(t *testing.T) {
	for _, c := range []struct {
		expr, version string
		gone          bool
	}{
		{"!go1.21", "1.22.3", true},
		{"!go1.21", "1.21", true},
		{"!go1.20", "1.20", false}, // not enforced before 1.21
		{"!go1.23", "1.22", false},
		{"!go1.21", "2.0", false},
		{"!go1.21", "1.x", false},
	} {
		if got := goBuildGone(c.expr, c.version, "go.mod"); (got != "") != c.gone {
			t.Errorf("goBuildGone(%q, %q) = %q, want gone=%v", c.expr, c.version, got, c.gone)
		}
	}
}
