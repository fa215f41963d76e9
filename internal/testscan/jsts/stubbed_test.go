package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestStubbedChecks: a check whose subject calls a function a module mock's
// factory returns, or that a spy given an implementation (in the test, or
// outside every test) replaces, cannot fail; a spy that calls through, a
// mocked dependency of the checked code and another test's spy leave it.
func TestStubbedChecks(t *testing.T) {
	src := `import { it, expect, vi } from 'vitest';
import * as calc from '../src/calc.js';
import { parse, total } from '../src/calc.js';
import { fetchUser } from '../src/users.js';

vi.mock('../src/calc.js', () => ({ parse: (s) => 42, 'width': () => 1 }));
vi.mock('axios', () => { return { get: vi.fn() }; });

it('mocked module', () => {
  expect(parse('x')).toBe(42);
  expect(total('x')).toBe(3);
});

it('spy with an answer', () => {
  vi.spyOn(calc, 'total').mockReturnValue(3);
  expect(calc.total('x')).toBe(3);
});

it('spy calling through', () => {
  vi.spyOn(calc, 'total');
  expect(calc.total('y')).toBe(3);
});

it('mocked dependency', async () => {
  expect(await fetchUser(1)).toEqual({ id: 1 });
});

it('assigned fn', () => {
  calc.size = vi.fn(() => 7);
  expect(calc.size()).toBe(7);
});
`
	f := extract(t, "test/calc.test.js", src)
	got := map[string][]bool{}
	for _, tc := range f.Tests {
		for _, a := range tc.Assertions {
			got[tc.ID] = append(got[tc.ID], a.Strength == testscan.Trivial)
		}
	}
	want := map[string][]bool{
		"mocked module":       {true, false},
		"spy with an answer":  {true},
		"spy calling through": {false},
		"mocked dependency":   {false},
		"assigned fn":         {true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("trivial checks (-want +got):\n%s", diff)
	}
}

// TestExpectedThroughLocal: a const set once before the check to a call of
// the function the check's subject calls is the expected value; one set to
// another function's result keeps its name.
func TestExpectedThroughLocal(t *testing.T) {
	src := `import { it, expect } from 'vitest';
import { parse, reference } from '../src/calc.js';

it('a', () => {
  const expected = parse('x');
  expect(parse('x')).toBe(expected);
});

it('b', () => {
  const expected = reference('x');
  expect(parse('x')).toBe(expected);
});
`
	f := extract(t, "test/calc.test.js", src)
	got := map[string]string{}
	for _, tc := range f.Tests {
		got[tc.ID] = tc.Assertions[0].Expected
	}
	if diff := cmp.Diff(map[string]string{"a": `parse("x")`, "b": "expected"}, got); diff != "" {
		t.Errorf("expected values (-want +got):\n%s", diff)
	}
}
