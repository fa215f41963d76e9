package ci

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMakeTargets(t *testing.T) {
	mk := ".PHONY: all test\nGO ?= go\nall: lint test\n\nlint:\n\t$(GO) vet ./...\n\ntest: export X=1\ntest:\n\t@$(GO) test \\\n\t  ./...\nbuild: ; go build\n%.o: %.c\n\tcc $<\n"
	r := makeTargets([]byte(mk))
	want := map[string][]string{".PHONY": nil, "all": nil, "lint": {"go vet ./..."}, "test": {"go test  ./..."}, "build": {" go build"}}
	if diff := cmp.Diff(want, r.recipes); diff != "" {
		t.Errorf("recipes (-want +got):\n%s", diff)
	}
	if r.first != "all" || !r.pattern || r.include {
		t.Errorf("first %q pattern %v include %v", r.first, r.pattern, r.include)
	}
}

func TestMakeTargetsDirectives(t *testing.T) {
	mk := "ifeq (, $(shell which richgo))\n$(warning \"no richgo in $(PATH), run: go get richgo\")\nendif\ndefine HELP\nusage: make\nendef\n.DEFAULT_GOAL := all\nlint:\n\tgo vet ./...\nall: lint\n"
	r := makeTargets([]byte(mk))
	if r.first != "lint" || r.goal != "all" {
		t.Errorf("first %q goal %q", r.first, r.goal)
	}
	if diff := cmp.Diff([]string{"all", "lint"}, SortedKeys(r.recipes)); diff != "" {
		t.Errorf("targets (-want +got):\n%s", diff)
	}
}

func TestCIWorldKeys(t *testing.T) {
	mk := "all: lint test\nlint:\n\tgo vet ./...\ntest:\n\trichgo test ./...\nrich:\n\t@echo skipped\n"
	wf := func(run string) []byte {
		return []byte("on: [push]\njobs:\n  t:\n    steps:\n      - run: " + run + "\n")
	}
	tests := []struct {
		name string
		run  string
		want []string
	}{
		{"default goal", "make", []string{"go test", "go vet"}},
		{"target", "make -j 4 test", []string{"go test"}},
		{"target that echoes", "make rich", []string{}},
		{"script", "bash scripts/ci.sh", []string{"pytest"}},
		{"unknown makefile", "make -f other.mk test", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newCIWorld(map[string][]byte{".github/workflows/ci.yml": wf(tt.run), "Makefile": []byte(mk), "scripts/ci.sh": []byte("set -e\npytest -q\n")})
			got := SortedKeys(w.keys(".github/workflows/ci.yml"))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("keys (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunOperandsAndFilters(t *testing.T) {
	tests := []struct {
		cmd      string
		ops, exc []string
		filtered bool
	}{
		{"mocha --require test/support/env --check-leaks test/ test/acceptance/", []string{"test", "test/acceptance"}, nil, false},
		{"nyc --exclude test --reporter=text mocha test/", []string{"test"}, nil, false},
		{"pnpm run test:browser --exclude 'specs/runner.test.ts'", nil, []string{"specs/runner.test.ts"}, true},
		{"cargo test --workspace -- --skip ui", nil, []string{"ui"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			cmds := scriptCommands(tt.cmd)
			r, ok := runnerOf(cmds[0])
			if !ok {
				t.Fatal("no runner")
			}
			if diff := cmp.Diff(tt.ops, r.operands()); diff != "" {
				t.Errorf("operands (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.exc, r.excluded()); diff != "" {
				t.Errorf("excluded (-want +got):\n%s", diff)
			}
			if r.filtered() != tt.filtered {
				t.Errorf("filtered = %v", r.filtered())
			}
		})
	}
}
