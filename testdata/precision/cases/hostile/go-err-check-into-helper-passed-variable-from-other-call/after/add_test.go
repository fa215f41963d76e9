package cmd

import "testing"

func TestGoldenAddCmd(t *testing.T) {
	command := &Command{Name: "test"}
	project := &Project{}
	command.Create()
	err := project.Create()
	assertNoErr(t, err)

	err = compareFiles("cmd/test.go", "testdata/test.go.golden")
	if err != nil {
		t.Fatal(err)
	}
}
