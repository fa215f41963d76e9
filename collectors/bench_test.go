package collectors

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// benchSize is the size of the generated reports: the budget is 2 s
// and 100 MB of memory for a 100 MB JUnit or LCOV file.
const benchSize = 100 << 20

// maxPeakHeap is the memory budget a parse must stay under.
const maxPeakHeap = 100 << 20

func BenchmarkJUnit100MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.xml")
	tests := writeJUnit(b, path, benchSize)
	benchParse(b, JUnit{}, path, func(b *testing.B, r *Result) {
		if c, _ := r.TestCounts(); c.Total != tests {
			b.Fatalf("parsed %d tests, generated %d", c.Total, tests)
		}
	})
}

func BenchmarkLCOV100MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.info")
	files := writeLCOV(b, path, benchSize)
	benchParse(b, LCOV{}, path, func(b *testing.B, r *Result) {
		if len(r.Coverage.Files) != files {
			b.Fatalf("parsed %d files, generated %d", len(r.Coverage.Files), files)
		}
	})
}

// benchParse parses the file b.N times, reporting throughput and the peak
// live heap of one parse, and fails when the heap goes over the budget.
func benchParse(b *testing.B, p Parser, path string, check func(*testing.B, *Result)) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak, retained uint64
	b.ResetTimer()
	for b.Loop() {
		stop := sampleHeap(&peak)
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r, err := p.Parse(path, f)
		_ = f.Close()
		stop()
		if err != nil {
			b.Fatal(err)
		}
		check(b, r)
		b.StopTimer()
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		retained = max(retained, after.HeapAlloc-min(after.HeapAlloc, before.HeapAlloc))
		runtime.KeepAlive(r)
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(retained)/(1<<20), "result-MiB")
	if peak > maxPeakHeap {
		b.Errorf("peak heap %d MiB, budget %d MiB", peak>>20, maxPeakHeap>>20)
	}
}

// sampleHeap samples the heap (live and not yet collected objects) every
// millisecond until stopped, keeping the maximum in *peak.
func sampleHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(s)
		if v := s[0].Value.Uint64(); v > *peak {
			*peak = v
		}
	}
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				read()
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		read()
	}
}

var areas = []string{"Auth", "Billing", "Catalog", "Checkout", "Inventory", "Orders", "Search", "Users"}

// writeJUnit writes a JUnit file of about size bytes in the shape gotestsum
// and surefire write: suites of 200 cases (ids of about 100 bytes), some with output, failures with
// stack traces, skips. It returns the number of test cases.
func writeJUnit(tb testing.TB, path string, size int64) int {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	pr := func(format string, args ...any) {
		k, _ := fmt.Fprintf(w, format, args...)
		n += int64(k)
	}
	pr("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"bench\">\n")
	tests := 0
	for s := 0; n < size; s++ {
		class := fmt.Sprintf("github.com/acme/project/internal/service%04d/handlers", s)
		pr("\t<testsuite name=%q tests=\"200\" failures=\"4\" errors=\"0\" skipped=\"7\" time=\"1.234\" timestamp=\"2025-01-01T00:00:00Z\">\n", class)
		pr("\t\t<properties>\n\t\t\t<property name=\"go.version\" value=\"go1.26.0 linux/amd64\"></property>\n\t\t</properties>\n")
		for c := 0; c < 200; c++ {
			tests++
			name := fmt.Sprintf("Test%sHandler%03d/case_%d_with_a_descriptive_name", areas[(s+c/4)%len(areas)], c/4, c)
			switch {
			case c%50 == 7:
				pr("\t\t<testcase classname=%q name=%q time=\"0.010000\">\n\t\t\t<failure message=\"Failed\" type=\"\">=== RUN   %s\n", class, name, name)
				pr("    handler_test.go:%d: got status 500, want 200\n        body: {&#34;error&#34;:&#34;internal&#34;,&#34;id&#34;:%d}\n", 40+c, c)
				pr("    handler_test.go:%d: \n        Error Trace:\thandler_test.go:%d\n        Error:      \tNot equal:\n        expected: 200\n        actual  : 500\n--- FAIL: %s (0.01s)\n</failure>\n\t\t</testcase>\n", 41+c, 41+c, name)
			case c%30 == 3:
				pr("\t\t<testcase classname=%q name=%q time=\"0.000000\">\n\t\t\t<skipped message=\"=== RUN   %s&#xA;    handler_test.go:%d: needs a database&#xA;--- SKIP: %s (0.00s)&#xA;\"></skipped>\n\t\t</testcase>\n", class, name, name, c, name)
			case c%10 == 1:
				pr("\t\t<testcase classname=%q name=%q time=\"0.002000\">\n\t\t\t<system-out>2025/01/01 00:00:00 INFO request method=GET path=/api/v1/items/%d status=200 duration=1.2ms\n2025/01/01 00:00:00 DEBUG cache miss key=item:%d\n</system-out>\n\t\t</testcase>\n", class, name, c, c)
			default:
				pr("\t\t<testcase classname=%q name=%q time=\"0.001000\"></testcase>\n", class, name)
			}
		}
		pr("\t</testsuite>\n")
	}
	pr("</testsuites>\n")
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return tests
}

// writeLCOV writes an LCOV tracefile of about size bytes in the shape c8 and
// nyc write: 400-line files with functions, line and branch records. It
// returns the number of files.
func writeLCOV(tb testing.TB, path string, size int64) int {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	pr := func(format string, args ...any) {
		k, _ := fmt.Fprintf(w, format, args...)
		n += int64(k)
	}
	files := 0
	for ; n < size; files++ {
		pr("TN:\nSF:src/modules/module%05d/component.ts\n", files)
		for fn := 0; fn < 16; fn++ {
			pr("FN:%d,handler%d\n", 1+fn*25, fn)
		}
		for fn := 0; fn < 16; fn++ {
			pr("FNDA:%d,handler%d\n", (fn*7+files)%5, fn)
		}
		pr("FNF:16\nFNH:13\n")
		found, hit := 0, 0
		for l := 1; l <= 400; l++ {
			if l%5 == 0 {
				continue
			}
			h := (l*31 + files) % 9
			found++
			if h > 0 {
				hit++
			}
			pr("DA:%d,%d\n", l, h)
		}
		for l := 3; l <= 400; l += 10 {
			pr("BRDA:%d,0,0,%d\nBRDA:%d,0,1,-\n", l, l%3, l)
		}
		pr("BRF:80\nBRH:27\nLF:%d\nLH:%d\nend_of_record\n", found, hit)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return files
}
