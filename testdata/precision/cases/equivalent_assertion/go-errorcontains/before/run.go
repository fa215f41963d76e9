package run

import "errors"

func Run(args []string) error { return errors.New("intercepted in bar") }
