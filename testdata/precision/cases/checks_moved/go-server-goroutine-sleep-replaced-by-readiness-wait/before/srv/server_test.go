package srv

import (
	"io"
	"net/http"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	go func() {
		if err := Run("localhost:5150"); err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	// have to wait for the goroutine to start and run the server
	time.Sleep(5 * time.Millisecond)

	if err := Run("localhost:5150"); err == nil {
		t.Fatal("a second server on the same port started")
	}
	resp, err := http.Get("http://localhost:5150/example")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "it worked" {
		t.Errorf("body = %q", body)
	}
}
