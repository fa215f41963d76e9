package cmd

import "os"

type Command struct{ Name string }

func (c *Command) Create() error { return nil }

type Project struct{}

func (p *Project) Create() error { return nil }

func compareFiles(a, b string) error {
	if _, err := os.Stat(a); err != nil {
		return err
	}
	return nil
}
