package analyze

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan/golang"
)

func TestZZDumpFacts(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("DUMP"))
	f, _ := golang.New().Extract("x_test.go", src)
	for _, x := range f.HelperAssertions {
		if x.Helper == os.Getenv("HELPER") {
			b, _ := json.Marshal(x)
			t.Log(string(b))
		}
	}
}
