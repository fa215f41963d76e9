package loc

// Location returns the Location header for url.
func Location(url, referrer string) string {
	return url
}
