package header

func ContentType(name string) string { return "text/plain" }
