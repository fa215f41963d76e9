package pipeline

import (
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
)

func TestCargoPathDeps(t *testing.T) {
	var root, member map[string]any
	if _, err := toml.Decode("[workspace]\nmembers = [\"crates/*\"]\n[workspace.dependencies]\ntestkit = { path = \"crates/testkit\" }\nserde = \"1\"\n", &root); err != nil {
		t.Fatal(err)
	}
	if _, err := toml.Decode("[dependencies]\ncore = { path = \"../core\" }\nlog = \"0.4\"\n[dev-dependencies]\ntestkit = { workspace = true }\nfixtures = { path = \"fixtures\" }\nother = { workspace = true }\n", &member); err != nil {
		t.Fatal(err)
	}
	inherited := cargoPathDeps(root["workspace"].(map[string]any)["dependencies"], ".", nil)
	if d := cmp.Diff(map[string]string{"testkit": "crates/testkit"}, inherited); d != "" {
		t.Errorf("workspace (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{"testkit": "crates/testkit", "fixtures": "crates/app/fixtures"}, cargoPathDeps(member["dev-dependencies"], "crates/app", inherited)); d != "" {
		t.Errorf("dev (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{"core": "crates/core"}, cargoPathDeps(member["dependencies"], "crates/app", inherited)); d != "" {
		t.Errorf("code (-want +got):\n%s", d)
	}
	if got := cargoPathDeps(nil, ".", nil); len(got) != 0 {
		t.Errorf("no table: %v", got)
	}
}

func TestReplacedPackage(t *testing.T) {
	replaced := map[string]string{"testkit/check": "example.com/check"}
	for dir, want := range map[string]string{"testkit/check": "example.com/check", "testkit/check/sub": "example.com/check/sub", "testkit/checker": "", "other": ""} {
		p := replacedPackage(replaced, dir)
		got := ""
		if p != nil {
			got = p.ImportPath
		}
		if got != want {
			t.Errorf("replacedPackage(%q) = %q, want %q", dir, got, want)
		}
	}
}
