package form

import "errors"

func FormFile(name string) (*string, error) { return nil, errors.New("no file") }
