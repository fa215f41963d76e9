package rust

import "testing"

func TestMayInclude(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
	}{
		{"declared", "#[cfg(loom)]\nmod loom_token;\n", true},
		{"inline module of the name", "mod loom_token {\n    fn f() {}\n}\n", true},
		{"raw identifier", "mod r#loom_token;\n", true},
		{"inside a macro", "cfg_loom! {\n    mod loom_token;\n}\n", true},
		{"path attribute", "#[path = \"sync/tests/loom_token.rs\"]\nmod lt;\n", true},
		{"include!", "include!(\"loom_token.rs\");\n", true},
		{"directory module", "#[path = \"loom_token/mod.rs\"]\nmod lt;\n", true},
		{"empty file", "\n", false},
		{"other modules", "mod loom_other;\nmod tests;\nuse loom_token::x;\n", false},
		{"only a comment", "// mod loom_token;\n/* #[path = \"loom_token.rs\"] */\n", false},
		{"a longer name", "mod loom_token_extra;\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MayInclude([]byte(tt.src), "loom_token"); got != tt.want {
				t.Errorf("MayInclude(%q) = %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}
