package analyze

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestArmBound(t *testing.T) {
	tests := []struct {
		cond  string
		index int
		want  depBound
		ok    bool
	}{
		{`if int ( click . __version__ [ 0 ] ) < 8`, 0, depBound{dep: "click", version: "8"}, true},
		{`if int(click.__version__.split(".")[0]) <= 7`, 0, depBound{dep: "click", version: "7", inclusive: true}, true},
		{`if int(click.__version__[0]) == 7`, 0, depBound{dep: "click", version: "8"}, true},
		{`if int(click.__version__[0]) >= 8`, 1, depBound{dep: "click", version: "8"}, true},
		{`if int(click.__version__[0]) >= 8`, 0, depBound{}, false}, // the if of a lower bound runs on new versions
		{`if Version(pydantic.__version__) < Version("2.0")`, 0, depBound{dep: "pydantic", version: "2.0"}, true},
		{`if packaging.version.parse(attr.__version__) > packaging.version.parse("21.3")`, 1, depBound{dep: "attr", version: "21.3", inclusive: true}, true},
		{`if django.VERSION >= (3, 0)`, 1, depBound{dep: "django", version: "3.0"}, true},
		{`if django.VERSION < (3,)`, 0, depBound{dep: "django", version: "3"}, true},
		{`if click.__version__.startswith("7")`, 0, depBound{dep: "click", version: "8"}, true},
		{`if click.__version__.startswith("7")`, 1, depBound{}, false},
		{`if sys.version_info < (3, 8)`, 0, depBound{dep: "sys", version: "3.8"}, true}, // a name no requirement has: no floor
		{`if x < 8`, 0, depBound{}, false},
		{`for v in versions`, 0, depBound{}, false},
		{`if int(click.__version__[0]) < 8 and PY2`, 0, depBound{}, false},
	}
	for _, tc := range tests {
		got, ok := armBound(tc.cond, tc.index)
		if got != tc.want || ok != tc.ok {
			t.Errorf("armBound(%q, %d) = %+v, %v; want %+v, %v", tc.cond, tc.index, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDepBoundBelow(t *testing.T) {
	for _, tc := range []struct {
		b     depBound
		floor string
		want  bool
	}{
		{depBound{version: "8"}, "8.0", true},
		{depBound{version: "8"}, "7.1", false},
		{depBound{version: "8", inclusive: true}, "8", false},
		{depBound{version: "8", inclusive: true}, "8.0.1", true},
		{depBound{version: "3.0"}, "3.2", true},
		{depBound{version: "3.0"}, "x", false},
	} {
		if got := tc.b.below(tc.floor); got != tc.want {
			t.Errorf("%+v.below(%q) = %v, want %v", tc.b, tc.floor, got, tc.want)
		}
	}
}

func TestDepFloors(t *testing.T) {
	setupPy := `from setuptools import setup

setup(
    name="Flask",
    install_requires=[
        "Werkzeug >= 2.0",
        'click >= 8.0',  # the command line
        "importlib-metadata >= 3.6.0; python_version < '3.10'",
        "Jinja2>=3.0,<4",
    ],
)
`
	setupCfg := `[options]
packages = find:
install_requires =
    itsdangerous>=2.0
    MarkupSafe >= 2.1.1
`
	pyproject := `[project]
name = "x"
dependencies = ["django>=3.2", "typing_extensions>=4.0; python_version<'3.11'", "attrs[tests] >= 21.3"]

[tool.poetry.dependencies]
python = "^3.8"
pydantic = "^2.1"
httpx = { version = ">=0.24", extras = ["http2"] }
`
	tests := []struct {
		name, data string
		want       map[string]string
	}{
		{"setup.py", setupPy, map[string]string{"werkzeug": "2.0", "click": "8.0", "jinja2": "3.0"}},
		{"setup.py", `setup(install_requires=reqs())`, map[string]string{}},
		{"setup.py", `setup(install_requires=["click>=8"] + extra)`, map[string]string{"click": "8"}},
		{"setup.py", `setup(install_requires=["click>=8", EXTRA])`, map[string]string{}},
		{"setup.cfg", setupCfg, map[string]string{"itsdangerous": "2.0", "markupsafe": "2.1.1"}},
		{"pyproject.toml", pyproject, map[string]string{"django": "3.2", "attrs": "21.3", "pydantic": "2.1", "httpx": "0.24"}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, depFloors(tc.name, []byte(tc.data))); diff != "" {
			t.Errorf("depFloors(%s %q) (-want +got):\n%s", tc.name, tc.data, diff)
		}
	}
}

func FuzzLiteralList(f *testing.F) {
	for _, s := range []string{`setup(install_requires=["a>=1", 'b'])`, `install_requires = [ # c
 "x" ]`, `install_requires=[`, `install_requires==["a"]`, `xinstall_requires=["a"]`, `install_requires=["\"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range literalList(s, "install_requires") {
			if len(r) > len(s) {
				t.Fatalf("literalList(%q) read %q, longer than its source", s, r)
			}
		}
		armBound(s, 0)
		armBound(s, 1)
	})
}
