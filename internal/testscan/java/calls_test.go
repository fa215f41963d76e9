package java

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// TestCalls: a test method's calls name the methods it calls, "name" for a
// plain call and ".name" on a value, with their call sites. Assertions and
// the links chained to them, assumptions, Mockito stubbing and verification
// chains, constructors, local and anonymous classes' method declarations,
// Mockito and Hamcrest functions and static calls on library classes are
// left out; strings, text blocks, chars and comments call nothing. Helpers'
// calls are filed by helper, those of overloads merged.
func TestCalls(t *testing.T) {
	src := `package com.acme.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.*;
import static org.mockito.Mockito.*;

import java.util.List;
import org.junit.jupiter.api.*;

class OrderServiceTest {
    private OrderService service;
    private Repo repo;

    @BeforeEach
    void setUp() {
        repo = mock(Repo.class);
        service = new OrderService(repo);
        seed(service, 3);
    }

    @Test
    void placesOrder() {
        Order o = newOrder("a-1"); // helper(o) in a comment
        /* checkOrder(o) in a block comment */
        String s = "checkOrder(o) in a string";
        String tb = """
            checkOrder(o) in a text block
            """;
        char c = '(';
        service.place(o);
        service.place(o);
        @SuppressWarnings("unused") Object line = new Order.Line("x", 1);
        this.checkOrder(o);
        checkOrder(o);
        checkOrder(o, 2);
        assertThat(service.find(o.id())).isPresent().contains(o);
        assertEquals(3, Math.max(1, count(o)), "count");
        assertAll(() -> assertTrue(o.isOpen()));
        assertThrows(IllegalStateException.class, () -> service.cancel(o));
        verify(repo, times(1)).save(o);
        when(repo.load(1)).thenReturn(o);
        assumeTrue(ready());
        List<String> xs = List.of("a");
        Object y = new java.util.ArrayList<String>();
        Runnable r = new Runnable() {
            @Override
            public void run() { OrderFixtures.reset(); }

            int[] sizes(int n) { return new int[n]; }
        };
        softly.assertThat(o).isNotNull();
    }

    @Nested
    class Refunds {
        @Test
        void refundsPaidOrder() {
            Order o = newOrder("r-1");
            service.refund(o);
            checkOrder(o);
        }
    }

    private void checkOrder(Order o) {
        assertThat(o.total()).isEqualTo(10);
        audit(o);
    }

    private void checkOrder(Order o, int n) {
        assertEquals(n, o.lines().size());
        audit(o);
    }

    private Order newOrder(String id) {
        return Order.builder().id(id).build();
    }

    private void idle() {}
}
`
	want := map[string][]testscan.Call{
		"OrderServiceTest.placesOrder": {
			site("newOrder", 1), site(".place", 2), site(".checkOrder", 1), site("checkOrder", 2),
			site(".find", 1), site(".id", 1), site("count", 1), site(".isOpen", 1),
			site(".cancel", 1), site(".load", 1), site("ready", 1), site(".reset", 1),
		},
		"OrderServiceTest.Refunds.refundsPaidOrder": {
			site("newOrder", 1), site(".refund", 1), site("checkOrder", 1),
		},
	}
	wantHelpers := map[string][]testscan.Call{
		"OrderServiceTest.setUp":      {site("seed", 1)},
		"OrderServiceTest.checkOrder": {site(".total", 1), site("audit", 2), site(".lines", 1), site(".size", 1)},
		"OrderServiceTest.newOrder":   {site(".builder", 1), site(".id", 1), site(".build", 1)},
	}
	f := scantest.Calls(t, New(), "src/test/java/com/acme/orders/OrderServiceTest.java", src, want, wantHelpers)
	scantest.CheckCalls(t, f)
}

// TestCallsBounded: a test that calls many methods keeps the first MaxCalls
// names and still counts the sites of those it kept.
func TestCallsBounded(t *testing.T) {
	src := "class ManyTest {\n  @Test void many() {\n" + scantest.ManyCalls("    f%d();\n") + "  }\n}\n"
	scantest.CallsBounded(t, New(), "ManyTest.java", src, "f0")
}

// site is a call of name at sites places.
var site = scantest.Site
