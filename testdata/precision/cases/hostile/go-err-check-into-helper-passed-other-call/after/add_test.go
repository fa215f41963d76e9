package cmd

import "testing"

func TestGoldenAddCmd(t *testing.T) {
	command := &Command{Name: "test"}
	project := &Project{}
	assertNoErr(t, project.Create())
	command.Create()

	err := compareFiles("cmd/test.go", "testdata/test.go.golden")
	if err != nil {
		t.Fatal(err)
	}
}
