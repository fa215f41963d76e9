package m

import "errors"

func Parse(s string) error { return errors.New("parse: bad") }
