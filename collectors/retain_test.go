package collectors

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestXMLReadersRetainLessThanTheReport: the XML readers stream (no
// document tree), so what a parse keeps is the result, less than the
// report's own size: a hostile report cannot make the gate hold several
// times its size in memory.
func TestXMLReadersRetainLessThanTheReport(t *testing.T) {
	const size = 8 << 20
	var cob strings.Builder
	cob.WriteString(`<coverage line-rate="0.5"><packages><package name="p"><classes>`)
	for i := 0; cob.Len() < size; i++ {
		fmt.Fprintf(&cob, `<class name="c%d" filename="pkg/f%d.py"><lines>`, i, i)
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&cob, `<line number="%d" hits="%d"/>`, j+1, j%2)
		}
		cob.WriteString(`</lines></class>`)
	}
	cob.WriteString(`</classes></package></packages></coverage>`)
	var junit strings.Builder
	junit.WriteString(`<testsuites><testsuite name="s">`)
	for i := 0; junit.Len() < size; i++ {
		fmt.Fprintf(&junit, `<testcase classname="pkg.Class%d" name="test_case_%d" time="0.01"><failure message="boom %d">trace line one
trace line two</failure></testcase>`, i%100, i, i)
	}
	junit.WriteString(`</testsuite></testsuites>`)
	var cs strings.Builder
	cs.WriteString(`<checkstyle version="8.0">`)
	for i := 0; cs.Len() < size; i++ {
		fmt.Fprintf(&cs, `<file name="src/f%d.js"><error line="%d" column="1" severity="error" message="no-unused-vars %d" source="eslint.rules.no-unused-vars"/></file>`, i, i%500+1, i)
	}
	cs.WriteString(`</checkstyle>`)
	for _, tc := range []struct {
		p    Parser
		data string
	}{{Cobertura{}, cob.String()}, {JUnit{}, junit.String()}, {Checkstyle{}, cs.String()}} {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := tc.p.Parse("big", strings.NewReader(tc.data))
		if err != nil {
			t.Fatalf("%s: %v", tc.p.Format(), err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		runtime.KeepAlive(res)
		if kept > int64(len(tc.data)) {
			t.Errorf("%s: a %d MB report keeps %d MB after parsing", tc.p.Format(), len(tc.data)>>20, kept>>20)
		}
		t.Logf("%s: %d MB report, %d MB kept", tc.p.Format(), len(tc.data)>>20, kept>>20)
	}
}
