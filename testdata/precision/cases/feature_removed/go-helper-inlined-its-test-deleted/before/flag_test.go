package cli

import (
	"io"
	"os"
	"testing"
)

func TestFlagFromFile(t *testing.T) {
	temp, err := os.CreateTemp("", "cli_test")
	if err != nil {
		t.Error(err)
		return
	}
	t.Setenv("APP_FOO", "123")
	_, _ = io.WriteString(temp, "abc")
	_ = temp.Close()
	defer os.Remove(temp.Name())

	filePathTests := []struct {
		path     string
		name     []string
		expected string
	}{
		{"file-does-not-exist", []string{"APP_BAR"}, ""},
		{"file-does-not-exist", []string{"APP_FOO"}, "123"},
		{temp.Name(), []string{"APP_BAR"}, "abc"},
	}
	for _, filePathTest := range filePathTests {
		got, _, _ := flagFromEnvOrFile(filePathTest.name, []string{filePathTest.path})
		if want := filePathTest.expected; got != want {
			t.Errorf("Did not expect %v - Want %v", got, want)
		}
	}
}

func TestSplitValues(t *testing.T) {
	if got := splitValues("a,b"); len(got) != 2 {
		t.Errorf("splitValues = %v", got)
	}
}
