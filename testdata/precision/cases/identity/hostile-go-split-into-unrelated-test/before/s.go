package s

func Status(name string) string { return "ok" }

func Other() string { return "ok" }
