package srv

import (
	"fmt"
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

	// Wait for the server to be ready with exponential backoff.
	if err := waitForServerReady("http://localhost:5150/example", 10); err != nil {
		t.Fatal(err)
	}

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

// waitForServerReady polls url with exponential backoff until it answers.
func waitForServerReady(url string, maxAttempts int) error {
	client := &http.Client{Timeout: 100 * time.Millisecond}
	for i := 0; i < maxAttempts; i++ {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Duration(10*(1<<uint(i))) * time.Millisecond)
	}
	return fmt.Errorf("server at %s did not become ready after %d attempts", url, maxAttempts)
}
