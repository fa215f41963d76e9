package java

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
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
	f, err := New().Extract("src/test/java/com/acme/orders/OrderServiceTest.java", []byte(src))
	if err != nil || f.Partial {
		t.Fatalf("extract: %v partial=%v", err, f.Partial)
	}
	calls := map[string][]testscan.Call{}
	for _, tc := range f.Tests {
		calls[tc.ID] = tc.Calls
	}
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
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("test calls (-want +got):\n%s", diff)
	}
	wantHelpers := map[string][]testscan.Call{
		"OrderServiceTest.setUp":      {site("seed", 1)},
		"OrderServiceTest.checkOrder": {site(".total", 1), site("audit", 2), site(".lines", 1), site(".size", 1)},
		"OrderServiceTest.newOrder":   {site(".builder", 1), site(".id", 1), site(".build", 1)},
	}
	if diff := cmp.Diff(wantHelpers, f.HelperCalls); diff != "" {
		t.Errorf("helper calls (-want +got):\n%s", diff)
	}
	checkCalls(t, f)
}

// TestCallsBounded: a test that calls many methods keeps the first MaxCalls
// names and still counts the sites of those it kept.
func TestCallsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("class ManyTest {\n  @Test void many() {\n")
	for i := range testscan.MaxCalls + 10 {
		b.WriteString("    f" + strconv.Itoa(i) + "();\n")
	}
	b.WriteString("    f0();\n  }\n}\n")
	f, err := New().Extract("ManyTest.java", []byte(b.String()))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v, %d tests", err, len(f.Tests))
	}
	calls := f.Tests[0].Calls
	if len(calls) != testscan.MaxCalls || !reflect.DeepEqual(calls[0], site("f0", 2)) {
		t.Errorf("got %d calls, first %+v; want %d, f0 twice", len(calls), calls[0], testscan.MaxCalls)
	}
}

func site(name string, sites int) testscan.Call {
	return testscan.Call{Name: name, Sites: sites}
}

// checkCalls fails t when f's calls break their invariants.
func checkCalls(t *testing.T, f *testscan.File) {
	t.Helper()
	if err := f.CheckCalls(); err != nil {
		t.Fatal(err)
	}
}
