package java

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

func TestHelperAssertions(t *testing.T) {
	at := scantest.At
	const (
		weak   = testscan.Weak
		medium = testscan.Medium
		strong = testscan.Strong
	)
	scantest.RunHelperAssertions(t, New(), []scantest.HelperCase{
		{
			Name: "junit5 private helper and lifecycle methods",
			Path: "src/test/java/com/acme/OrderServiceTest.java",
			Src: `package com.acme;

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
			WantHelpers: []testscan.Assertion{
				at(13, "assertNotNull", weak, false, "service.repository()", ""),
				at(18, "assertTrue", medium, false, "service.close()", ""),
				at(22, "assertEquals", strong, false, "order.status()", `"OPEN"`),
				at(23, "isNotEmpty", weak, false, "order.items()", ""),
			},
			WantTests: map[string][]testscan.Assertion{
				"OrderServiceTest.createsOrder": {
					at(29, "assertValidOrder", medium, false, "order", ""),
					at(30, "assertEquals", strong, false, "order.items().size()", "1"),
				},
				"OrderServiceTest.reopensOrder": {at(35, "assertValidOrder", medium, false, "service.reopen(42)", "")},
			},
		},
		{
			Name: "junit3 setUp and check helper in a nested helper class",
			Path: "src/test/java/com/acme/LegacyTest.java",
			Src: `package com.acme;

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
			WantHelpers: []testscan.Assertion{
				at(7, "assertFalse", medium, true, "Db.isOpen()", ""),
				at(21, "assertEquals", strong, false, "row.id()", "id"),
			},
			WantTests: map[string][]testscan.Assertion{
				"LegacyTest.testInsert": nil,
				"LegacyTest.testDelete": {at(16, "assertNull", medium, false, `Db.find("a")`, "")},
			},
		},
		{
			Name: "testng lifecycle methods of a class-level @Test are helpers",
			Path: "src/test/java/com/acme/CartTest.java",
			Src: `package com.acme;

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
			WantHelpers: []testscan.Assertion{
				at(10, "assertEquals", strong, false, "cart.size()", "0"),
				at(24, "assertTrue", medium, false, "cart.isEmpty()", ""),
			},
			WantTests: map[string][]testscan.Assertion{
				"CartTest.addsItem":    {at(15, "assertEquals", strong, false, "cart.size()", "1")},
				"CartTest.removesItem": nil,
			},
		},
	})
}
