//go:build linux || darwin

package artifacts

import (
	"os"

	"golang.org/x/sys/unix"
)

// canMap reports whether Open maps files on this system.
const canMap = true

// mapRegion maps the first size bytes of f read-only and private: a
// write to them faults instead of reaching the file.
func mapRegion(f *os.File, size int) ([]byte, error) {
	return unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_PRIVATE)
}

// unmapRegion unmaps a region of mapRegion.
func unmapRegion(b []byte) { _ = unix.Munmap(b) }
