package config

import (
	"strings"
	"testing"
)

func TestHookSection(t *testing.T) {
	c, err := Parse(".ralph-gate.yml", []byte("hook:\n  collect: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Hook.Collect {
		t.Errorf("hook.collect = false, want true")
	}
	if d := Default(); d.Hook.Collect {
		t.Errorf("default hook.collect = true, want false")
	}
	for _, tc := range []struct{ name, in, want string }{
		{"unknown key", "hook:\n  colect: true\n", "line 2: field colect not found"},
		{"not a bool", "hook:\n  collect: sometimes\n", "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(".ralph-gate.yml", []byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "config.Hook") {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
