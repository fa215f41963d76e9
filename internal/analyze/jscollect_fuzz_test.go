package analyze

import (
	"strings"
	"testing"
)

// FuzzVitestIncludes: a vitest config of any text is read without a panic,
// and one that cannot be read never says a file is left out (ok false
// means "collected" to the caller).
func FuzzVitestIncludes(f *testing.F) {
	for _, s := range []string{
		"export default defineConfig({ test: { include: ['test/**/*.test.ts'] } })",
		"import { defineConfig } from 'vitest/config'\nconst inc = ['a/**']\nexport default defineConfig({ test: { projects: [{ test: { include: inc, root: './pkg' } }] } })",
		"export default { test: { include: [process.env.X] } }",
		"export default defineConfig({ test: { root: path.join(import.meta.dirname, 'x'), include: ['**/*.{test,spec}.?(c|m)[jt]s?(x)'] } })",
		"module.exports = {",
	} {
		f.Add(s, "test/a.test.ts")
	}
	f.Fuzz(func(t *testing.T, cfg, p string) {
		in, ok := vitestIncludes([]byte(cfg), "", p)
		if !ok && in {
			t.Errorf("unreadable config reports the file in: %q", cfg)
		}
	})
}

// FuzzGlobRegexp: any glob either fails with an error or compiles to a
// regexp that matches without a panic.
func FuzzGlobRegexp(f *testing.F) {
	for _, s := range []string{"test/**/*.test.ts", "**/*.{test,spec}.?(c|m)[jt]s?(x)", "{a,b}/[!c]*", "a/@(x|y)/+(z)", "[", "{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, g string) {
		re, err := globRegexp(g)
		if err != nil {
			return
		}
		_ = re.MatchString(strings.TrimPrefix(g, "**/"))
		_ = re.MatchString("test/a.test.ts")
	})
}
