package cfg

import "strings"

type Config struct {
	Name string
	Port string
	Tags []string
}

func Parse(s string) Config {
	var c Config
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "name":
			c.Name = v
		case "port":
			c.Port = v
		case "tag":
			c.Tags = append(c.Tags, v)
		}
	}
	return c
}
