package srv

import "net/http"

// Run serves hello on addr until it fails.
func Run(addr string) error {
	mux := http.NewServeMux()
	mux.HandleFunc("/example", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("it worked")) })
	return http.ListenAndServe(addr, mux)
}
