package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestHelperAssertions(t *testing.T) {
	at := func(line int, kind string, s testscan.Strength, neg bool, subject, expected string) testscan.Assertion {
		return testscan.Assertion{Line: line, Kind: kind, Strength: s, Negated: neg, Subject: subject, Expected: expected}
	}
	const (
		weak   = testscan.Weak
		medium = testscan.Medium
		strong = testscan.Strong
	)
	tests := []struct {
		name        string
		path        string
		src         string
		wantHelpers []testscan.Assertion
		wantTests   map[string][]testscan.Assertion
	}{
		{
			name: "junit5 private helper and lifecycle methods",
			path: "src/test/java/com/acme/OrderServiceTest.java",
			src: `package com.acme;

import org.junit.jupiter.api.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.assertj.core.api.Assertions.assertThat;

class OrderServiceTest {
    private OrderService service;

    @BeforeEach
    void setUp() {
        service = new OrderService();
        assertNotNull(service.repository());
    }

    @AfterEach
    void tearDown() {
        assertTrue(service.close());
    }

    private void assertValidOrder(Order order) {
        assertEquals("OPEN", order.status());
        assertThat(order.items()).isNotEmpty();
    }

    @Test
    void createsOrder() {
        Order order = service.create("book");
        assertValidOrder(order);
        assertEquals(1, order.items().size());
    }

    @Test
    void reopensOrder() {
        assertValidOrder(service.reopen(42));
    }
}
`,
			wantHelpers: []testscan.Assertion{
				at(13, "assertNotNull", weak, false, "service.repository()", ""),
				at(18, "assertTrue", medium, false, "service.close()", ""),
				at(22, "assertEquals", strong, false, "order.status()", `"OPEN"`),
				at(23, "isNotEmpty", weak, false, "order.items()", ""),
			},
			wantTests: map[string][]testscan.Assertion{
				"OrderServiceTest.createsOrder": {
					at(29, "assertValidOrder", medium, false, "order", ""),
					at(30, "assertEquals", strong, false, "order.items().size()", "1"),
				},
				"OrderServiceTest.reopensOrder": {at(35, "assertValidOrder", medium, false, "service.reopen(42)", "")},
			},
		},
		{
			name: "junit3 setUp and check helper in a nested helper class",
			path: "src/test/java/com/acme/LegacyTest.java",
			src: `package com.acme;

import junit.framework.TestCase;

public class LegacyTest extends TestCase {
    protected void setUp() {
        assertFalse(Db.isOpen());
    }

    public void testInsert() {
        Checks.row(Db.insert("a"), 1);
    }

    public void testDelete() {
        Checks.row(Db.delete("a"), 0);
        assertNull(Db.find("a"));
    }

    static class Checks {
        static void row(Row row, int id) {
            assertEquals(id, row.id());
        }
    }
}
`,
			wantHelpers: []testscan.Assertion{
				at(7, "assertFalse", medium, true, "Db.isOpen()", ""),
				at(21, "assertEquals", strong, false, "row.id()", "id"),
			},
			wantTests: map[string][]testscan.Assertion{
				"LegacyTest.testInsert": nil,
				"LegacyTest.testDelete": {at(16, "assertNull", medium, false, `Db.find("a")`, "")},
			},
		},
		{
			name: "testng lifecycle methods of a class-level @Test are helpers",
			path: "src/test/java/com/acme/CartTest.java",
			src: `package com.acme;

import org.testng.annotations.*;
import static org.testng.Assert.*;

@Test
public class CartTest {
    @BeforeMethod
    public void init() {
        assertEquals(cart.size(), 0);
    }

    public void addsItem() {
        cart.add("x");
        assertEquals(cart.size(), 1);
    }

    public void removesItem() {
        cart.remove("x");
        verifyEmpty();
    }

    private void verifyEmpty() {
        assertTrue(cart.isEmpty());
    }
}
`,
			wantHelpers: []testscan.Assertion{
				at(10, "assertEquals", strong, false, "cart.size()", "0"),
				at(24, "assertTrue", medium, false, "cart.isEmpty()", ""),
			},
			wantTests: map[string][]testscan.Assertion{
				"CartTest.addsItem":    {at(15, "assertEquals", strong, false, "cart.size()", "1")},
				"CartTest.removesItem": nil,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, tt.path, tt.src)
			if diff := cmp.Diff(tt.wantHelpers, f.HelperAssertions, cmpopts.IgnoreFields(testscan.Assertion{}, "Helper")); diff != "" {
				t.Errorf("HelperAssertions (-want +got):\n%s", diff)
			}
			got := map[string][]testscan.Assertion{}
			for _, tc := range f.Tests {
				got[tc.ID] = tc.Assertions
			}
			if diff := cmp.Diff(tt.wantTests, got); diff != "" {
				t.Errorf("test assertions (-want +got):\n%s", diff)
			}
		})
	}
}
