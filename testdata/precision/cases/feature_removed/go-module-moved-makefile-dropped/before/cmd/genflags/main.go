package main

import (
	"fmt"
	"strings"
)

// typeName is the generated type's name for a flag type.
func typeName(goType string) string {
	return strings.ToUpper(goType[:1]) + goType[1:] + "Flag"
}

func main() {
	for _, t := range []string{"int", "string"} {
		fmt.Println(typeName(t))
	}
}
