package artifacts

import (
	"io/fs"
	"os"
	"sync"
)

// fileMaps holds the read-only mappings of one artifact's files: the
// model file and its external data files (Open). The artifact's
// model.Backing releases them once nothing views them any more.
type fileMaps struct {
	mu      sync.Mutex
	regions [][]byte
}

// read returns the bytes of regular file f, mapped where this system
// maps files (mapRegion) and read into the heap otherwise, refusing a
// file larger than limit before reading it. It closes f.
func (m *fileMaps) read(f fs.File, limit int64) ([]byte, error) {
	if m != nil {
		if osf, ok := f.(*os.File); ok {
			st, err := osf.Stat()
			if err == nil && st.Mode().IsRegular() && st.Size() > 0 && st.Size() <= limit && st.Size() <= maxInt {
				if b, err := mapRegion(osf, int(st.Size())); err == nil {
					osf.Close()
					m.mu.Lock()
					m.regions = append(m.regions, b)
					m.mu.Unlock()
					return b, nil
				}
			}
		}
	}
	return readLimited(f, limit)
}

// release unmaps every region; later calls do nothing.
func (m *fileMaps) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.regions) == 0 {
		return
	}
	for _, b := range m.regions {
		unmapRegion(b)
	}
	m.regions = nil
}

// mapped reports whether any region is mapped.
func (m *fileMaps) mapped() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.regions) > 0
}
