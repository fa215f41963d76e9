package analyze

import "testing"

func TestVitestIncludes(t *testing.T) {
	const e2e = `import path from 'node:path'
import { defineConfig } from 'vite'
import { defaultExclude } from 'vitest/config'

const serialTests = [
  'test/git-changed.test.ts',
]

export default defineConfig({
  test: {
    reporters: [process.env.CI ? 'minimal' : 'verbose'],
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/**.{test,spec}.ts'],
          exclude: [...defaultExclude, ...serialTests],
          typecheck: { enabled: true, include: ['./test/config-types.test-d.ts'] },
        },
      },
      {
        extends: true,
        test: {
          name: 'snapshots',
          root: path.join(import.meta.dirname, 'snapshots'),
          exclude: ['**/fixtures/**', ...defaultExclude],
        },
      },
      { extends: true, test: { name: 'serial', include: serialTests } },
    ],
  },
  server: { watch: { ignored: ['**/fixtures/browser-init/**/*'] } },
})
`
	for _, tt := range []struct {
		name, cfg, p string
		in, ok       bool
	}{
		{"fixture left out", e2e, "test/e2e/fixtures/run-mode/example.test.ts", false, true},
		{"main project", e2e, "test/e2e/test/reporters.test.ts", true, true},
		{"serial project", e2e, "test/e2e/test/git-changed.test.ts", true, true},
		{"project root's default include", e2e, "test/e2e/snapshots/x/a.test.ts", true, true},
		{"no test options: the default include", `export default {}`, "test/e2e/fixtures/a.test.ts", true, true},
		{"include chosen at run time", `export default { test: { include: process.env.X ? ['a/**'] : ['b/**'] } }`, "test/e2e/fixtures/a.test.ts", false, false},
		{"projects named by a glob", `export default { test: { projects: ['packages/*'] } }`, "test/e2e/fixtures/a.test.ts", false, false},
		{"merged config", `export default mergeConfig(base, { test: { include: ['test/**'] } })`, "test/e2e/fixtures/a.test.ts", false, false},
		{"vite root", `export default { root: 'fixtures', test: { include: ['**/*.test.ts'] } }`, "test/e2e/fixtures/a.test.ts", false, false},
		{"dir option", `export default { test: { dir: 'fixtures', include: ['test/**'] } }`, "test/e2e/fixtures/a.test.ts", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in, ok := vitestIncludes([]byte(tt.cfg), "test/e2e", tt.p)
			if in != tt.in || ok != tt.ok {
				t.Errorf("vitestIncludes = %v, %v; want %v, %v", in, ok, tt.in, tt.ok)
			}
		})
	}
}

func TestNamesDirOf(t *testing.T) {
	const p = "test/e2e/fixtures/stacktraces/a.test.ts"
	for _, tt := range []struct {
		text, dir string
		want      bool
	}{
		{"vitest --root=./fixtures/stacktraces --watch=false", "test/e2e", true},
		{"vitest --root=./fixtures/other --watch=false", "test/e2e", false},
		{"vitest -c fixtures/stacktraces/vitest.config.ts", "test/e2e", true},
		{"vitest run --dir fixtures", "test/e2e", true},
		{"vitest", "test/e2e", false},
		{"working-directory: test/e2e\nrun: pnpm test", ".", false},
		{"run: npx vitest --root test/e2e/fixtures/stacktraces", ".", true},
	} {
		if got := namesDirOf(tt.text, tt.dir, "test/e2e", p, tt.dir != "."); got != tt.want {
			t.Errorf("namesDirOf(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestNamesDirOfOtherConfig(t *testing.T) {
	const p = "pkg/fixtures/a.test.ts"
	for _, text := range []string{"vitest --config vitest.all.ts", "vitest -c ./vitest.e2e.config.ts", "vitest --workspace w.json", "jest && vitest run --config=vitest.config.mts"} {
		if !namesDirOf(text, ".", ".", p, true) {
			t.Errorf("namesDirOf(%q) = false: another config is named", text)
		}
	}
}
