package collect

import (
	"os"
	"path/filepath"
	"strings"
)

// isolatedEnv gives a run its own HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME,
// XDG_DATA_HOME and TMPDIR under out (removed after the run), and pins the
// caches that are safe to share, and slow to lose, to where they were:
// Go's build and module caches and GOPATH, npm's cache. Those are keyed by
// content, so what one end's tests write there cannot change what the other
// end reads.
func isolatedEnv(env []string, out string) []string {
	get := func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if name, v, ok := strings.Cut(env[i], "="); ok && name == k {
				return v
			}
		}
		return ""
	}
	home := get("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	cacheHome := get("XDG_CACHE_HOME")
	if cacheHome == "" && home != "" {
		cacheHome = filepath.Join(home, ".cache")
	}
	pins := map[string]string{}
	pin := func(k, def string) {
		if v := get(k); v != "" {
			pins[k] = v
		} else if def != "" {
			pins[k] = def
		}
	}
	gopath := get("GOPATH")
	if gopath == "" && home != "" {
		gopath = filepath.Join(home, "go")
	}
	pin("GOPATH", gopath)
	if cacheHome != "" {
		pin("GOCACHE", filepath.Join(cacheHome, "go-build"))
	}
	if gopath != "" {
		pin("GOMODCACHE", filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "pkg", "mod"))
	}
	if home != "" {
		pin("npm_config_cache", filepath.Join(home, ".npm"))
		// rustup's proxies (cargo, rustc) find their toolchains, and
		// cargo its registry, under the user's home.
		for k, d := range map[string]string{"CARGO_HOME": ".cargo", "RUSTUP_HOME": ".rustup"} {
			if get(k) != "" {
				pin(k, "")
			} else if _, err := os.Stat(filepath.Join(home, d)); err == nil {
				pins[k] = filepath.Join(home, d)
			}
		}
	}
	// The user's settings, read by the tools, not by the tests: go env's file,
	// npm's registry settings, git's identity. Kept when they exist.
	configHome := get("XDG_CONFIG_HOME")
	if configHome == "" && home != "" {
		configHome = filepath.Join(home, ".config")
	}
	for k, p := range map[string]string{
		"GOENV":                 filepath.Join(configHome, "go", "env"),
		"NPM_CONFIG_USERCONFIG": filepath.Join(home, ".npmrc"),
		"GIT_CONFIG_GLOBAL":     filepath.Join(home, ".gitconfig"),
	} {
		if get(k) != "" {
			pin(k, "")
		} else if _, err := os.Stat(p); err == nil && home != "" {
			pins[k] = p
		}
	}
	own := map[string]string{
		"HOME":            filepath.Join(out, "home"),
		"XDG_CONFIG_HOME": filepath.Join(out, "home", ".config"),
		"XDG_CACHE_HOME":  filepath.Join(out, "home", ".cache"),
		"XDG_DATA_HOME":   filepath.Join(out, "home", ".local", "share"),
		"TMPDIR":          filepath.Join(out, "tmp"),
	}
	for _, d := range own {
		_ = os.MkdirAll(d, 0o700)
	}
	kept := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := own[k]; ok {
			continue
		}
		if _, ok := pins[k]; ok {
			continue
		}
		kept = append(kept, kv)
	}
	for _, m := range []map[string]string{pins, own} {
		for k, v := range m {
			kept = append(kept, k+"="+v)
		}
	}
	return kept
}
