package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestImportSpecifiers(t *testing.T) {
	src := "import a from './a'\nimport { b } from \"@/lib/b\"\nexport * from '../c.js'\nconst d = require('d')\nconst e = await import('./e')\n// import f from './f'\nconst s = 'from ./g'\nx.import('./h')\n"
	want := []string{"./a", "@/lib/b", "../c.js", "d", "./e"}
	if d := cmp.Diff(want, ImportSpecifiers("x.ts", []byte(src))); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestUsesTestRunner(t *testing.T) {
	for src, want := range map[string]bool{
		"import { expect } from 'vitest'\nexport const ok = (x) => expect(x).toBe(true)\n":    true,
		"const assert = require('node:assert/strict')\n":                                      true,
		"import { render } from '@testing-library/react'\n":                                   true,
		"import 'jest-extended'\n":                                                            true,
		"export function expectTriple(got, x) { expect(got).toBe(x * 3) }\n":                  true,
		"expect.extend({ toBeOdd(r) { return { pass: r % 2 === 1, message: () => '' } } })\n": true,
		"export const mock = vi.fn()\n":                                                       true,
		"export function triple(x) { return x * 3 }\n":                                        false,
		"import { expect } from './expect.js'\n":                                              false,
		"const o = { expect: 1 }; o.expect(2)\n":                                              false,
		"// expect(x) in a comment\nconst s = 'vi.fn()'\n":                                    false,
		"import express from 'express'\n":                                                     false,
	} {
		if got := UsesTestRunner("x.js", []byte(src)); got != want {
			t.Errorf("UsesTestRunner(%q) = %v", src, got)
		}
	}
}

func FuzzImportSpecifiers(f *testing.F) {
	f.Add("import a from './a'\nrequire(`b`)\nexpect.extend({})\n")
	f.Add("import(")
	f.Add("export * from '@scope'")
	f.Fuzz(func(t *testing.T, src string) {
		for _, s := range ImportSpecifiers("x.ts", []byte(src)) {
			if s == "" && len(src) == 0 {
				t.Fatal("a specifier from nothing")
			}
		}
		UsesTestRunner("x.tsx", []byte(src))
	})
}
