package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHelperNames: each helper assertion names the function around it
// (declarations, methods, arrow and function expressions assigned to a name,
// TypeScript return types; anonymous callbacks looked through), hooks and
// describe bodies name none, and File.Helpers lists the named functions outside
// tests, also one that asserts nothing.
func TestHelperNames(t *testing.T) {
	src := `import { expect, describe, it, beforeEach } from "vitest";

function checkSum(a: number, b: number): void {
  expect(sum(a, b)).toBe(a + b);
}

const expectPositive = (xs: number[]): void => {
  xs.forEach((x) => expect(x).toBeGreaterThan(0));
};

const expectEven = function (x) {
  expect(x % 2).toBe(0);
};

async function log(x) {
  console.log(x);
}

class Checker {
  verify(x) {
    expect(x).toBeDefined();
  }
}

describe("sum", () => {
  beforeEach(() => {
    expect(setup()).toBe(true);
  });
  it("adds", () => {
    checkSum(1, 2);
  });
});
`
	f := extract(t, "src/sum.test.ts", src)
	if diff := cmp.Diff([]string{"checkSum", "expectPositive", "expectEven", "log", "verify"}, f.Helpers); diff != "" {
		t.Errorf("Helpers (-want +got):\n%s", diff)
	}
	got := map[string]int{}
	for _, x := range f.HelperAssertions {
		got[x.Helper]++
	}
	want := map[string]int{"checkSum": 1, "expectPositive": 1, "expectEven": 1, "verify": 1, "": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("helper assertions by helper (-want +got):\n%s", diff)
	}
}
