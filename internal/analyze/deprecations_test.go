package analyze

import (
	"strings"
	"testing"
)

// TestRetiredSubject reads the API of removed deprecation notices in each
// language's way of giving one, and links deleted tests to it only when
// their names call it as the notice writes it.
func TestRetiredSubject(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, id, want string
	}{
		{"depd signature", "  deprecate('res.json(obj, status): Use res.status(status).json(obj) instead');\n", "", "res > .json(object, status) > should set the status", "res.json"},
		{"depd signature, other arity", "  deprecate('res.json(obj, status): Use res.status(status).json(obj) instead');\n", "", "res > .json(object) > should respond", ""},
		{"depd signature, longer name", "  deprecate('res.json(obj, status): Use res.status(status).json(obj) instead');\n", "", "res > .jsonp(object, status) > should set the status", ""},
		{"alias", "app.del = deprecate.function(app.delete, 'app.del: Use app.delete instead');\n", "", "app.del() > should alias app.delete()", "app.del"},
		{"alias, the replacement's test", "app.del = deprecate.function(app.delete, 'app.del: Use app.delete instead');\n", "", "app.delete() > should route", ""},
		{"python warn over two lines", "        warnings.warn(\n            \"'app.env' is deprecated.\",\n            DeprecationWarning,\n        )\n", "", "test_get_env", "app.env"},
		{"python, other test", "        warnings.warn(\n            \"'app.env' is deprecated.\",\n            DeprecationWarning,\n        )\n", "", "test_environ", ""},
		{"go comment over the declaration", "// Deprecated: use NewCommand.\nfunc NewApp() *App {\n\treturn nil\n}\n", "", "TestNewAppDefaults", "NewApp"},
		{"java annotation", "    @Deprecated\n    public static Gson legacyGson() {\n", "", "GsonTest.testLegacyGson", "legacyGson"},
		{"rust attribute", "#[deprecated(note = \"use run\")]\npub fn spawn_old() {}\n", "", "tests::spawn_old_runs", "spawn_old"},
		{"notice kept in the new version", "  deprecate('res.json(obj, status): Use res.status(status).json(obj) instead');\n", "function warn() {\n  deprecate('res.json(obj, status): Use res.status(status).json(obj) instead');\n}\n", "res > .json(object, status) > should set the status", ""},
		{"no notice removed", "res.json = function json(obj) {}\n", "", "res > .json(object) > should respond", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if r := retiredSubject(tc.id, retiredIn(tc.old, tc.new)); r != nil {
				got = r.name
			}
			if got != tc.want {
				t.Errorf("retiredSubject(%q) = %q, want %q (retired: %+v)", tc.id, got, tc.want, retiredIn(tc.old, tc.new))
			}
		})
	}
}

// retiredIn runs retiredAPIs on one production file changed from old to new.
func retiredIn(old, new string) []retired {
	lines := strings.Split(old, "\n")
	gone := removedLines(lines, []byte(new))
	var out []retired
	for i, l := range lines {
		if gone[i] && strings.Contains(strings.ToLower(l), "deprecat") {
			for _, r := range noticeNames(lines, gone, i) {
				if !mentionedIn([][]byte{[]byte(new)}, r.notice) {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

func FuzzRetired(f *testing.F) {
	f.Add("  deprecate('res.json(obj, status): Use res.status(status).json(obj) instead');\n", "", "res > .json(object, status) > x")
	f.Add("        warnings.warn(\n            \"'app.env' is deprecated.\",\n            DeprecationWarning,\n        )\n", "x", "test_get_env")
	f.Add("// Deprecated: x\nfunc NewApp() {}\n", "", "TestNewApp/sub")
	f.Add("'\\", "", ".(")
	f.Add("deprecated 'a.b(,,' \"", "", "x.b(1,2,3")
	f.Fuzz(func(t *testing.T, old, new, id string) {
		for _, r := range retiredIn(old, new) {
			if r.name == "" || r.arity < -1 || r.notice == "" {
				t.Fatalf("bad retired API %+v", r)
			}
		}
		_ = retiredSubject(id, retiredIn(old, new))
		for _, w := range idWords(id) {
			if w == "" {
				t.Fatalf("empty word in %q", id)
			}
		}
	})
}

func FuzzSkeleton(f *testing.F) {
	f.Add(`      throw new Error('Failed to pipe. The response has been emitted already.');`)
	f.Add(`raise TypeError("'multiple' is not valid with 'is_flag', use 'count'.")`)
	f.Add("x = `a ${b} c` + 'unclosed")
	f.Add(`"\`)
	f.Fuzz(func(t *testing.T, l string) {
		sk := skeleton(l)
		if len(sk) > len(strings.TrimSpace(l)) {
			t.Fatalf("skeleton(%q) = %q, longer than the line", l, sk)
		}
		for _, q := range quotedTexts(l) {
			if !strings.Contains(l, q) {
				t.Fatalf("quotedTexts(%q) gave %q, not in the line", l, q)
			}
		}
		if w := firstWord(l); !strings.HasPrefix(w, "\x00") {
			t.Fatalf("firstWord(%q) = %q", l, w)
		}
	})
}
