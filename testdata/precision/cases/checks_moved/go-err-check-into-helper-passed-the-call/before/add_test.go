package cmd

import "testing"

func TestGoldenAddCmd(t *testing.T) {
	command := &Command{Name: "test"}
	project := &Project{}
	project.Create()
	if err := command.Create(); err != nil {
		t.Fatal(err)
	}

	err := compareFiles("cmd/test.go", "testdata/test.go.golden")
	if err != nil {
		t.Fatal(err)
	}
}
