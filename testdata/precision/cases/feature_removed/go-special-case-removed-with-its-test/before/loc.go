package loc

// Location returns the Location header for url; "back" is the referrer,
// or "/" without one.
func Location(url, referrer string) string {
	switch url {
	case "back":
		if referrer == "" {
			return "/"
		}
		return referrer
	}
	return url
}
