package collect

import (
	"encoding/json"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/runner"
)

// packageJSON holds the fields of package.json that detection reads.
type packageJSON struct {
	Dependencies    map[string]any  `json:"dependencies"`
	DevDependencies map[string]any  `json:"devDependencies"`
	PackageManager  string          `json:"packageManager"`
	ESLintConfig    json.RawMessage `json:"eslintConfig"`
}

func (p *packageJSON) depends(name string) bool {
	_, dep := p.Dependencies[name]
	_, dev := p.DevDependencies[name]
	return dep || dev
}

// packageManager is how a lockfile's package manager installs and runs the
// project's own binaries.
type packageManager struct {
	tool    string
	install []string
	exec    []string // prefix that runs a binary of node_modules/.bin
}

var (
	npm  = packageManager{tool: "npm", install: []string{"npm", "ci"}, exec: []string{"npx", "--no", "--"}}
	pnpm = packageManager{tool: "pnpm", install: []string{"pnpm", "install", "--frozen-lockfile"}, exec: []string{"pnpm", "exec"}}
	yarn = packageManager{tool: "yarn", install: []string{"yarn", "install", "--frozen-lockfile"}, exec: []string{"yarn"}}
)

// packageManager picks the lockfile's package manager; unpinned is set when
// there is no lockfile (package.json's packageManager field then decides).
func (d *detector) packageManager(pkg *packageJSON) (pm packageManager, unpinned bool) {
	switch {
	case d.has("pnpm-lock.yaml"):
		return pnpm, false
	case d.has("yarn.lock"):
		return yarn, false
	case d.has("package-lock.json") || d.has("npm-shrinkwrap.json"):
		return npm, false
	}
	switch pm = npm; {
	case strings.HasPrefix(pkg.PackageManager, "pnpm@"):
		pm = pnpm
		pm.install = []string{"pnpm", "install"}
	case strings.HasPrefix(pkg.PackageManager, "yarn@"):
		pm = yarn
		pm.install = []string{"yarn", "install"}
	default:
		pm.install = []string{"npm", "install", "--no-package-lock"}
	}
	return pm, true
}

func (d *detector) node() error {
	raw, err := d.read("package.json")
	if err != nil {
		return err
	}
	if raw == nil {
		if d.has("tsconfig.json") {
			d.note("collector tsc: no package.json, so no ./node_modules/.bin/tsc to run")
		}
		return nil
	}
	var pkg packageJSON
	if err := json.Unmarshal(raw, &pkg); err != nil {
		d.note("package.json: not valid JSON (%v); JavaScript collectors not detected", err)
		return nil
	}
	pm, unpinned := d.packageManager(&pkg)
	run := func(args ...string) []string { return append(append([]string{}, pm.exec...), args...) }
	specs := d.nodeTests(&pkg, run)
	if d.has("tsconfig.json") {
		if pkg.depends("typescript") {
			specs = append(specs, config.Collector{
				Name:    "tsc",
				Argv:    []string{"./node_modules/.bin/tsc", "--noEmit", "--pretty", "false"},
				Reports: []config.ReportSpec{{Format: "tsc", Stdout: true}},
			})
		} else {
			d.note("collector tsc: typescript is not a dependency in package.json, so there is no ./node_modules/.bin/tsc to run")
		}
	}
	if d.eslintConfigured(&pkg) && pkg.depends("eslint") {
		specs = append(specs, config.Collector{
			Name:    "eslint",
			Argv:    run("eslint", "--format", "json", "--output-file", OutDir+"/eslint.json", "."),
			Reports: []config.ReportSpec{{Format: "eslint", Path: OutDir + "/eslint.json"}},
		})
	}
	if len(specs) == 0 {
		return nil
	}
	ready := true
	for _, c := range specs {
		ready = d.installed(c.Name, "node", pm.tool) && ready
	}
	if !ready {
		return nil
	}
	if unpinned {
		d.note("package.json: no lockfile; dependencies are installed unpinned with %s", strings.Join(pm.install, " "))
	}
	if _, committed := d.root["node_modules"]; !committed {
		d.specs = append(d.specs, config.Collector{Name: pm.install[0] + " install", Argv: pm.install})
	}
	d.specs = append(d.specs, specs...)
	return nil
}

// nodeTests returns the test runner's collector; run prefixes a binary of
// node_modules/.bin with the package manager's exec command.
func (d *detector) nodeTests(pkg *packageJSON, run func(...string) []string) []config.Collector {
	junit := OutDir + "/node-junit.xml"
	coverageDir := OutDir + "/node-coverage"
	lcov := coverageDir + "/lcov.info"
	switch {
	case pkg.depends("vitest"):
		c := config.Collector{
			Name:    "vitest",
			Argv:    run("vitest", "run", "--reporter=default", "--reporter=junit", "--outputFile.junit="+junit),
			Tests:   true,
			Runner:  string(runner.Vitest),
			Reports: []config.ReportSpec{{Format: "junit", Path: junit}},
		}
		if pkg.depends("@vitest/coverage-v8") || pkg.depends("@vitest/coverage-istanbul") {
			c.Argv = append(c.Argv, "--coverage.enabled", "--coverage.reporter=lcov", "--coverage.reportsDirectory="+coverageDir)
			c.Reports = append(c.Reports, config.ReportSpec{Format: "lcov", Path: lcov})
		} else {
			d.note("collector vitest: coverage not measured (no @vitest/coverage-v8 or @vitest/coverage-istanbul in package.json)")
		}
		if pkg.depends("jest") {
			d.note("collector jest: not run, vitest is the project's test runner")
		}
		return []config.Collector{c}
	case pkg.depends("jest") && pkg.depends("jest-junit"):
		return []config.Collector{{
			Name: "jest",
			Argv: run("jest", "--ci", "--reporters=default", "--reporters=jest-junit",
				"--coverage", "--coverageReporters=lcov", "--coverageDirectory="+coverageDir),
			Env:    map[string]string{"JEST_JUNIT_OUTPUT_DIR": OutDir, "JEST_JUNIT_OUTPUT_NAME": "node-junit.xml"},
			Tests:  true,
			Runner: string(runner.Jest),
			Reports: []config.ReportSpec{
				{Format: "junit", Path: junit},
				{Format: "lcov", Path: lcov},
			},
		}}
	case pkg.depends("jest"):
		d.note("collector jest: jest without jest-junit: configure a collector in %s", config.FileName)
	}
	return nil
}

// eslintConfigured reports whether the tree has an eslint configuration.
func (d *detector) eslintConfigured(pkg *packageJSON) bool {
	for _, f := range []string{
		"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", "eslint.config.mts", "eslint.config.cts",
		".eslintrc", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml",
	} {
		if d.has(f) {
			return true
		}
	}
	return len(pkg.ESLintConfig) > 0 && string(pkg.ESLintConfig) != "null"
}
