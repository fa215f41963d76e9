package fakemodel

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestExploreClaude(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	var script []Turn
	if err := json.Unmarshal([]byte(os.Getenv("SCRIPT")), &script); err != nil {
		t.Fatal(err)
	}
	s := StartAnthropic(t, script, Options{})
	dir := os.Getenv("PROJ")
	cmd := exec.Command("sh", "-c", os.Getenv("CMD"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ANTHROPIC_BASE_URL="+s.URL, "ANTHROPIC_API_KEY=sk-test", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1")
	out, err := cmd.CombinedOutput()
	os.WriteFile("/tmp/explore/out.txt", out, 0o644)
	fmt.Println("err:", err)
	for i, r := range s.Requests() {
		os.WriteFile(filepath.Join("/tmp/explore", fmt.Sprintf("req%02d.json", i)), r.Raw, 0o644)
		fmt.Println(i, r.Path, r.Side, len(r.Raw))
	}
	fmt.Println(s.Errors(), s.Played())
}
