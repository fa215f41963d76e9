package patch

import (
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const gitDiff = `diff --git a/calc_test.go b/calc_test.go
index 1111111..2222222 100644
--- a/calc_test.go
+++ b/calc_test.go
@@ -3,7 +3,5 @@ package calc
 import "testing"
 
 func TestAdd(t *testing.T) {
-	if Add(1, 2) != 3 {
-		t.Fatal("bad")
-	}
+	_ = Add(1, 2)
 }
diff --git a/old.go b/new.go
similarity index 90%
rename from old.go
rename to new.go
index 3333333..4444444 100644
--- a/old.go
+++ b/new.go
@@ -1 +1 @@
-package a
+package b
diff --git a/gone_test.go b/gone_test.go
deleted file mode 100644
index 5555555..0000000
--- a/gone_test.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package calc
-func TestGone(t *testing.T) {}
diff --git a/img.png b/img.png
new file mode 100644
index 0000000..6666666
Binary files /dev/null and b/img.png differ
`

func TestRead(t *testing.T) {
	files, err := Read("x.diff", strings.NewReader(gitDiff))
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Old, New         string
		OldText, NewText string
		Binary, Complete bool
	}
	var got []summary
	for _, f := range files {
		got = append(got, summary{f.OldPath, f.NewPath, string(f.Old), string(f.New), f.Binary, f.Complete})
	}
	want := []summary{
		{
			Old: "calc_test.go", New: "calc_test.go",
			OldText: "\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
			NewText: "\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\t_ = Add(1, 2)\n}\n",
		},
		{Old: "old.go", New: "new.go", OldText: "package a\n", NewText: "package b\n"},
		{Old: "gone_test.go", OldText: "package calc\nfunc TestGone(t *testing.T) {}\n", Complete: true},
		{New: "img.png", Binary: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Read (-want +got):\n%s", diff)
	}
}

func TestReadPlainDiffU(t *testing.T) {
	in := "--- a.py\t2026-01-01 00:00:00\n+++ a.py\t2026-01-02 00:00:00\n@@ -1,2 +1,2 @@\n def test_x():\n-    assert f() == 1\n+    assert f()\n"
	files, err := Read("p", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].OldPath != "a.py" || files[0].NewPath != "a.py" {
		t.Fatalf("got %+v", files)
	}
	if got := string(files[0].New); got != "def test_x():\n    assert f()\n" {
		t.Errorf("new side = %q", got)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "no file diffs found"},
		{"prose", "hello\nworld\n", "no file diffs found"},
		{"bad header", "--- a\n+++ b\n@@ -x +1 @@\n", "line 3: malformed hunk header"},
		{"truncated", "--- a\n+++ b\n@@ -1,3 +1,3 @@\n-x\n+y\n", "truncated"},
		{"next file inside a hunk", "--- a\n+++ b\n@@ -1,3 +1,3 @@\n-x\ndiff --git a/c b/c\n", "line 5: hunk ended early"},
		{"huge line", "--- a\n+++ b\n@@ -1 +99999999999 @@\n", "malformed hunk header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read("in.diff", strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "in.diff") {
				t.Fatalf("err = %v, want it to name in.diff and say %q", err, tc.want)
			}
		})
	}
}

func FuzzRead(f *testing.F) {
	f.Add(gitDiff)
	f.Add("--- a\n+++ b\n@@ -1,0 +1,2 @@\n+x\n+y\n")
	f.Add("diff --git \"a/sp ace\" \"b/sp ace\"\n--- \"a/sp ace\"\n+++ \"b/sp ace\"\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n")
	f.Add("--- a/x\n+++ b/x\n@@ -9999999 +9999999 @@\n-a\n+b\n")
	f.Add("--- a/x\n+++ b/x\n@@ -1500000 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1500000 @@\n-a\n+b\n")
	f.Fuzz(func(t *testing.T, in string) {
		files, err := Read("fuzz", strings.NewReader(in))
		if err != nil {
			return
		}
		// The caps hold: what a patch places never exceeds its span.
		lines := 0
		for _, fl := range files {
			lines += strings.Count(string(fl.Old), "\n") + strings.Count(string(fl.New), "\n")
		}
		if lines > maxSpan+2*len(files) {
			t.Fatalf("%d lines placed, over the span of %d", lines, maxSpan)
		}
		if len(files) == 0 {
			t.Fatal("no files and no error")
		}
		for _, fl := range files {
			if fl.OldPath == "" && fl.NewPath == "" {
				t.Fatal("file without a name")
			}
		}
	})
}

// TestHostileHeaders: a few bytes of hunk header must not make Read pad
// millions of lines: a patch whose headers place its lines beyond the span
// a patch may cover is malformed, at once.
func TestHostileHeaders(t *testing.T) {
	for _, p := range []string{
		"--- a/x\n+++ b/x\n@@ -9999999 +9999999 @@\n-a\n+b\n",
		"--- a/x\n+++ b/x\n@@ -1500000 +1500000 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1500000 +1500000 @@\n-a\n+b\n",
	} {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		_, err := Read("p", strings.NewReader(p))
		runtime.ReadMemStats(&ms)
		if err == nil || !strings.Contains(err.Error(), "more than 2000000 lines") {
			t.Errorf("%q: %v", p, err)
		}
		if got := ms.TotalAlloc - before; got > 200<<20 {
			t.Errorf("%q: allocated %d MB", p, got>>20)
		}
	}
	// A legitimate fragment far into a large file is fine.
	if _, err := Read("p", strings.NewReader("--- a/x\n+++ b/x\n@@ -900000,1 +900000,1 @@\n-a\n+b\n")); err != nil {
		t.Errorf("fragment at line 900000: %v", err)
	}
}

func TestPatchSizeCap(t *testing.T) {
	t.Setenv("RALPH_GATE_MAX_PATCH_BYTES", "100")
	p := "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n" + strings.Repeat(" context line\n", 3)
	if _, err := Read("p", strings.NewReader(p)); err != nil {
		t.Errorf("within the cap: %v", err)
	}
	if _, err := Read("p", strings.NewReader(p+strings.Repeat("x", 200))); err == nil || !strings.Contains(err.Error(), "over the cap of 100 bytes") {
		t.Errorf("over the cap: %v", err)
	}
}
