package parse
