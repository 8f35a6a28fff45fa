package compute

// Options configure a backend. The zero value is valid: it picks defaults.
type Options struct {
	// Threads is how many threads a model may use for one call; 0 or 1
	// means one.
	Threads int
}
