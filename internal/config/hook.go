package config

// Hook configures the pre-push hook (ralph-gate hook pre-push):
//
//	hook:
//	  collect: true
type Hook struct {
	// Collect makes the hook measure both ends as compare does (running the
	// collectors), not only read the diff. Off by default: a push should take
	// well under a second, and running the tests twice does not.
	Collect bool `yaml:"collect"`
}
