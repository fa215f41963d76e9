package gitrepo

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// generatedRepo imports a repository of commits commits over files files in
// nested directories; each commit edits a few files, and some add, delete or
// rename one. The history is deterministic.
func generatedRepo(tb testing.TB, commits, files int) *testRepo {
	g := newTestRepo(tb)
	rng := rand.New(rand.NewSource(1))
	paths := make([]string, files)
	contents := make([][]string, files)
	for i := range paths {
		paths[i] = fmt.Sprintf("pkg%d/sub%d/file%d_test.go", i%7, i%13, i)
		for l := 0; l < 40+rng.Intn(200); l++ {
			contents[i] = append(contents[i], fmt.Sprintf("\tassert.Equal(t, %d, f(%d)) // line %d of %d", rng.Int(), l, l, i))
		}
	}
	var b strings.Builder
	data := func(s string) { fmt.Fprintf(&b, "data %d\n%s\n", len(s), s) }
	for c := 0; c < commits; c++ {
		fmt.Fprintf(&b, "commit refs/heads/main\ncommitter R <r@example.com> %d +0000\n", 1700000000+60*c)
		data(fmt.Sprintf("commit %d", c))
		if c == 0 {
			for i, p := range paths {
				fmt.Fprintf(&b, "M 100644 inline %s\n", p)
				data(strings.Join(contents[i], "\n") + "\n")
			}
			continue
		}
		for k := 0; k < 1+rng.Intn(4); k++ {
			i := rng.Intn(files)
			l := rng.Intn(len(contents[i]))
			contents[i][l] = fmt.Sprintf("\tassert.NotNil(t, f(%d)) // edited in %d", l, c)
			fmt.Fprintf(&b, "M 100644 inline %s\n", paths[i])
			data(strings.Join(contents[i], "\n") + "\n")
		}
		if c%10 == 0 { // an edited rename
			i := rng.Intn(files)
			old := paths[i]
			paths[i] = fmt.Sprintf("moved%d/%s", c, old[strings.LastIndexByte(old, '/')+1:])
			contents[i] = append(contents[i], "// moved")
			fmt.Fprintf(&b, "D %s\nM 100644 inline %s\n", old, paths[i])
			data(strings.Join(contents[i], "\n") + "\n")
		}
	}
	g.fastImport(b.String())
	g.git("repack", "-adq")
	return g
}

// walkRange is what the analyzer does with a range: every commit against its
// first parent, reading both sides of every changed file.
func walkRange(tb testing.TB, r *Repo, base, head plumbing.Hash) (commits, blobs int) {
	cs, err := r.Range(base, head)
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range cs {
		changes, err := r.Diff(c.Parent, c.Hash)
		if err != nil {
			tb.Fatal(err)
		}
		for _, ch := range changes {
			for _, e := range []Entry{ch.From, ch.To} {
				if e.Path == "" || !e.Mode.IsFile() {
					continue
				}
				if _, err := r.Blob(e.Hash); err != nil {
					tb.Fatal(err)
				}
				blobs++
			}
		}
	}
	return len(cs), blobs
}

func BenchmarkRangeDiff(b *testing.B) {
	g := generatedRepo(b, 300, 400)
	head := g.head()
	base := g.rev("main~250")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Open(g.dir)
		if err != nil {
			b.Fatal(err)
		}
		commits, blobs := walkRange(b, r, base, head)
		if commits != 250 || blobs == 0 {
			b.Fatalf("walked %d commits and %d blobs", commits, blobs)
		}
		r.Close()
	}
}

// BenchmarkGitLogPatch is the yardstick for BenchmarkRangeDiff: git itself
// producing the patches of the same range.
func BenchmarkGitLogPatch(b *testing.B) {
	g := generatedRepo(b, 300, 400)
	spec := g.rev("main~250").String() + ".." + g.head().String()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.git("log", "-p", "-M", "--first-parent", spec)
	}
}

// TestRealRepository measures a large repository when one is at hand: set
// RALPH_GATE_BENCH_REPO to a git directory (e.g. a prometheus clone). It
// reports the per-commit time and compares the range with git log -p.
func TestRealRepository(t *testing.T) {
	dir := os.Getenv("RALPH_GATE_BENCH_REPO")
	if dir == "" {
		dir = "/work/bench/prometheus"
	}
	if _, err := os.Stat(dir); err != nil || testing.Short() {
		t.Skip("no benchmark repository")
	}
	start := time.Now()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	head, err := r.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	base, err := r.Resolve("HEAD~200")
	if err != nil {
		t.Fatal(err)
	}
	opened := time.Since(start)
	cs, err := r.Range(base, head)
	if err != nil {
		t.Fatal(err)
	}
	var per []time.Duration
	for _, c := range cs {
		t0 := time.Now()
		changes, err := r.Diff(c.Parent, c.Hash)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range changes {
			for _, e := range []Entry{ch.From, ch.To} {
				if e.Path != "" && e.Mode.IsFile() {
					_, _ = r.Blob(e.Hash)
				}
			}
		}
		per = append(per, time.Since(t0))
	}
	total := time.Since(start)
	sort.Slice(per, func(i, j int) bool { return per[i] < per[j] })
	t0 := time.Now()
	cmd := exec.Command("git", "-C", dir, "log", "-p", "--first-parent", base.String()+".."+head.String())
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	gitTime := time.Since(t0)
	// The general walk against git, on a tag off the first-parent chain.
	for _, tag := range []string{"v3.0.0", "v2.53.0"} {
		th, err := r.Resolve(tag)
		if err != nil {
			continue
		}
		t1 := time.Now()
		mb, err := r.MergeBase(th, head)
		if err != nil {
			t.Fatal(err)
		}
		mbTime := time.Since(t1)
		want, _ := exec.Command("git", "-C", dir, "merge-base", tag, head.String()).Output()
		if mb.String() != strings.TrimSpace(string(want)) {
			t.Errorf("MergeBase(%s, HEAD) = %s, git says %s", tag, mb, want)
		}
		t1 = time.Now()
		rc, err := r.Range(mb, head)
		if err != nil {
			t.Fatal(err)
		}
		fpTime := time.Since(t1)
		t1 = time.Now()
		all, err := r.Range(th, head)
		if err != nil {
			t.Fatal(err)
		}
		allTime := time.Since(t1)
		count, _ := exec.Command("git", "-C", dir, "rev-list", "--count", tag+".."+head.String()).Output()
		if fmt.Sprint(len(all)) != strings.TrimSpace(string(count)) {
			t.Errorf("Range(%s, HEAD) has %d commits, git rev-list --count says %s", tag, len(all), count)
		}
		t1 = time.Now()
		net, err := r.Diff(mb, head)
		if err != nil {
			t.Fatal(err)
		}
		renames := 0
		for _, c := range net {
			if c.Action == Rename {
				renames++
			}
		}
		t.Logf("%s: merge-base %v; first-parent range from it: %d commits in %v; general range: %d commits in %v; net diff %d changes (%d renames) in %v",
			tag, mbTime, len(rc), fpTime, len(all), allTime, len(net), renames, time.Since(t1))
	}
	t.Logf("open+resolve %v; %d commits in %v (p50 %v, p95 %v, max %v); git log -p %v; ratio %.2f; %s",
		opened, len(cs), total, per[len(per)/2], per[len(per)*95/100], per[len(per)-1], gitTime,
		float64(total)/float64(gitTime), peakRSS())
}

// peakRSS reads the process's peak resident set size on Linux.
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "peak RSS unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return "peak RSS " + strings.Join(strings.Fields(line[len("VmHWM:"):]), " ")
		}
	}
	return "peak RSS unknown"
}
