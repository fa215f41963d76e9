package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// TestMocks: the mocks a test runs with, their targets and literal
// answers, and whether a value check reads their answer (Subject), for
// AIWG's LP-014.
func TestMocks(t *testing.T) {
	src := `import { describe, it, expect, vi } from 'vitest'
import { total, width as w } from '../src/calc'
import * as prices from '../src/prices'
import api from '../src/api'

vi.mock('../src/calc')
vi.mock('../src/prices', () => ({ getPrice: () => 10, async tax() { return 2 }, ...vi.importActual('../src/prices'), rate: vi.fn().mockReturnValue('x') }))

describe('calc', () => {
  beforeEach(() => { vi.mocked(api.get).mockResolvedValue({ ok: true }) })

  it('automock', () => {
    vi.mocked(total).mockReturnValue(5)
    const r = total([1, 2])
    expect(r).toBe(5)
  })

  it('spy', () => {
    const spy = vi.spyOn(prices, 'fetch')
    spy.mockReturnValueOnce(1).mockReturnValueOnce(2)
    vi.spyOn(Math, 'random').mockImplementation(() => 0.5)
    prices.total = vi.fn(() => 20)
    expect(prices.getPrice('tv')).toBe(10)
    expect(prices.fetch).toHaveBeenCalledWith('tv')
  })

  it('cast', async () => {
    (w as jest.Mock).mockImplementation(function () { return 3 })
    const spy = vi.spyOn(prices, 'real')
    expect(await api.load()).toEqual({ ok: true })
  })
})
`
	f := scantest.Extract(t, New(), "test/calc.test.ts", src)
	calc := testscan.Mock{Line: 6, Target: "../src/calc"}
	getPrice := testscan.Mock{Line: 7, Target: "../src/prices", Name: "getPrice", Returns: "10"}
	tax := testscan.Mock{Line: 7, Target: "../src/prices", Name: "tax", Returns: "2"}
	rate := testscan.Mock{Line: 7, Target: "../src/prices", Name: "rate", Returns: `"x"`}
	get := testscan.Mock{Line: 10, Target: "api.get", Name: "get", Returns: "{ok:true}"}
	subject := func(m testscan.Mock) testscan.Mock { m.Subject = true; return m }
	want := map[string][]testscan.Mock{
		"calc > automock": {subject(calc), getPrice, tax, rate, get, {Line: 13, Target: "total", Name: "total", Returns: "5", Subject: true}},
		"calc > spy": {calc, subject(getPrice), tax, rate, get,
			{Line: 20, Target: "prices.fetch", Name: "fetch", Returns: "1"}, {Line: 20, Target: "prices.fetch", Name: "fetch", Returns: "2"},
			{Line: 21, Target: "Math.random", Name: "random", Returns: "0.5"}, {Line: 22, Target: "prices.total", Name: "total", Returns: "20"}},
		"calc > cast": {calc, getPrice, tax, rate, get, {Line: 28, Target: "w", Name: "w", Returns: "3"}},
	}
	for _, tc := range f.Tests {
		if diff := cmp.Diff(want[tc.ID], tc.Mocks); diff != "" {
			t.Errorf("%s mocks (-want +got):\n%s", tc.ID, diff)
		}
	}
	scantest.CheckMocks(t, src, f)

	// Another module's automock, a partial mock keeping the real subject,
	// and a test of a mocks module have no mock of their subject.
	other := `import { total } from '../src/calc'
import { fetchRates } from '../src/rates'
jest.mock('../src/rates')
jest.mock('../src/calc', () => ({ ...jest.requireActual('../src/calc'), helper: jest.fn() }))
test('t', () => { expect(total([1])).toBe(1); expect(fetchRates()).toBe(undefined) })
`
	g := scantest.Extract(t, New(), "test/calc.test.js", other)
	for _, m := range g.Tests[0].Mocks {
		if m.Subject && m.Name != "" {
			t.Errorf("subject mock %+v", m)
		}
	}
	if diff := cmp.Diff([]testscan.Mock{{Line: 3, Target: "../src/rates"}, {Line: 4, Target: "../src/calc", Name: "helper"}}, g.Tests[0].Mocks); diff != "" {
		t.Errorf("other module, partial mock (-want +got):\n%s", diff)
	}
}

func TestModuleStems(t *testing.T) {
	for p, want := range map[string]string{
		"test/calc.test.ts": "calc", "src/__tests__/calc.tsx": "calc", "calc.spec.js": "calc", "test/cart-total.test.mjs": "cart-total",
	} {
		if got := testStem(p); got != want {
			t.Errorf("testStem(%s) = %q, want %q", p, got, want)
		}
	}
	for spec, want := range map[string]string{
		"../src/calc": "calc", "../src/calc.js": "calc", "@/lib/cart-total": "carttotal", "../src/calc/index.ts": "calc", "./calc.service": "calcservice",
	} {
		if got := moduleStem(spec); got != want {
			t.Errorf("moduleStem(%s) = %q, want %q", spec, got, want)
		}
	}
}
