//go:build !linux && !darwin

package artifacts

import (
	"errors"
	"os"
)

// canMap reports whether Open maps files on this system.
const canMap = false

// mapRegion does not map here: Open reads files into the heap.
func mapRegion(*os.File, int) ([]byte, error) {
	return nil, errors.New("no file mapping on this system")
}

// unmapRegion does nothing here.
func unmapRegion([]byte) {}
