// Package runner is the one place that knows which test runners ralph-gate
// drives: their names, the files each collects, and how a collector's
// command is recognized when its configuration does not name its runner.
//
// Detection (internal/collect) stamps every collector it makes with its
// runner; a collector written in .ralph-gate.yml may name one (runner: go);
// otherwise Of recognizes it from the command. Whoever needs to treat a
// runner apart (the tamper check narrowing a run to some tests, affected-only
// measuring) asks Of, never the command.
package runner

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Runner is a test runner, by its configuration name; None is a command
// ralph-gate does not know (run whole, read through its reports).
type Runner string

// The runners.
const (
	None   Runner = ""
	Go     Runner = "go"     // go test
	Pytest Runner = "pytest" // python -m pytest
	Vitest Runner = "vitest"
	Jest   Runner = "jest"
	Cargo  Runner = "cargo"  // cargo test
	Maven  Runner = "maven"  // mvn test (Surefire)
	Gradle Runner = "gradle" // gradle test
)

// known lists the runners in the order Names gives them.
var known = []Runner{Go, Pytest, Vitest, Jest, Cargo, Maven, Gradle}

// Names lists the runner names a configuration may give.
func Names() []string {
	out := make([]string, len(known))
	for i, r := range known {
		out[i] = string(r)
	}
	return out
}

// Parse reads a configured runner name; "" is None.
func Parse(name string) (Runner, error) {
	r := Runner(strings.ToLower(strings.TrimSpace(name)))
	if r == None || slices.Contains(known, r) {
		return r, nil
	}
	return None, fmt.Errorf("unknown runner %q (want one of %s)", name, strings.Join(Names(), ", "))
}

// Of is a collector's runner: the one its configuration names, else the one
// its command runs (argv, or the one shell string).
func Of(named string, argv []string) Runner {
	if r, err := Parse(named); err == nil && r != None {
		return r
	}
	cmd := strings.Join(argv, " ")
	first := ""
	if len(argv) > 0 {
		first = path.Base(argv[0])
	}
	has := func(word string) bool { return first == word || strings.Contains(cmd, word) }
	switch {
	// cargo first: "cargo test" spells "go test" too.
	case strings.Contains(cmd, "cargo test") || first == "cargo" && len(argv) > 1 && argv[1] == "test":
		return Cargo
	case strings.Contains(cmd, "go test") || first == "go" && len(argv) > 1 && argv[1] == "test":
		return Go
	case has("pytest"):
		return Pytest
	case has("vitest"):
		return Vitest
	case has("jest"):
		return Jest
	case has("mvn"):
		return Maven
	case has("gradle"):
		return Gradle
	}
	return None
}

// jvmSources are the extensions of the test sources Maven and Gradle compile.
var jvmSources = []string{".java", ".kt", ".groovy", ".scala"}

// Collects reports whether the runner runs a test file: the files whose
// edits the tamper check can rerun through it. Maven, Gradle and None
// collect everything: the build (or the command) runs whole, and a JVM
// build reads its test resources as well as its test sources.
func (r Runner) Collects(file string) bool {
	ext := path.Ext(file)
	switch r {
	case Go:
		return strings.HasSuffix(file, "_test.go")
	case Pytest:
		return ext == ".py"
	case Cargo:
		return ext == ".rs"
	case Vitest, Jest:
		return slices.Contains([]string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts"}, ext)
	case Maven, Gradle, None:
		// A build runs its test sources and reads its test resources:
		// whatever the change edited goes into the run.
		return true
	}
	return false
}

// JVMClass is the simple class name of a JVM test source (CalcTest for
// src/test/java/ex/CalcTest.java), or "" for another file.
func JVMClass(file string) string {
	ext := path.Ext(file)
	if !slices.Contains(jvmSources, ext) {
		return ""
	}
	return strings.TrimSuffix(path.Base(file), ext)
}
