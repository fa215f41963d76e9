package analyze

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSSetupFiles(t *testing.T) {
	for _, c := range []struct {
		cfg, data string
		want      []string
	}{
		{"vitest.config.ts", "import { defineConfig } from 'vitest/config'\nexport default defineConfig({ test: { setupFiles: ['./src/setup.ts', 'test/more.ts'], globalSetup: './global.ts' } })\n", []string{"src/setup.ts", "test/more.ts", "global.ts"}},
		{"web/jest.config.js", "module.exports = { setupFilesAfterEnv: ['<rootDir>/jest.setup.js', 'jest-extended/all'], testEnvironment: 'node' }\n", []string{"web/jest.setup.js", "web/jest-extended/all"}},
		{"package.json", `{"jest": {"setupFiles": ["./setup/env.js"], "globalSetup": "./setup/global.js"}}`, []string{"setup/env.js", "setup/global.js"}},
		{"vitest.config.ts", "// setupFiles: ['./commented.ts']\nexport default { test: { setupFiles: 'jsdom-global' } }\n", nil},
		{"vitest.config.ts", "export default { test: { setupFiles: ['../outside.ts'] } }\n", nil},
		{"package.json", `{"jest": `, nil},
	} {
		if d := cmp.Diff(c.want, JSSetupFiles(c.cfg, []byte(c.data))); d != "" {
			t.Errorf("%s %q (-want +got):\n%s", c.cfg, c.data, d)
		}
	}
}

// FuzzJSSetupFiles reads arbitrary runner configurations: never a panic,
// never a path outside the repository.
func FuzzJSSetupFiles(f *testing.F) {
	f.Add("vitest.config.ts", "export default { test: { setupFiles: ['./a.ts', `b`], globalSetup: './g.ts' } }")
	f.Add("package.json", `{"jest": {"setupFilesAfterEnv": ["<rootDir>/s.js"]}}`)
	f.Add("jest.config.js", "module.exports = { setupFiles: [...base, '../x.js'] }")
	f.Fuzz(func(t *testing.T, name, data string) {
		if name == "" {
			return
		}
		for _, p := range JSSetupFiles(name, []byte(data)) {
			if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
				t.Fatalf("setup file %q outside the repository", p)
			}
		}
	})
}
