package server

func Ready(port int) bool        { return port > 0 }
func Features(port int) []string { return []string{"a"} }
