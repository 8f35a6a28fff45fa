//go:build !amd64 || purego

package cpu

import "testing"

// forPoolWidths runs f once: this build has one width of pooling
// kernels.
func forPoolWidths(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	f(t)
}

// benchPoolWidths runs f: this build has one width of pooling kernels.
func benchPoolWidths(b *testing.B, f func(b *testing.B)) { f(b) }
