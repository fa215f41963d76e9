package debug

var runtimeVersion = "go1.25.0"

func minorOf(v string) int {
	if v < "go1.24" {
		return 23
	}
	return 25
}

func Warning() string {
	out := ""
	if minorOf(runtimeVersion) < 24 {
		out += "requires Go 1.24+\n"
	}
	return out + "engine created\n"
}
