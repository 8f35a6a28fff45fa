//go:build !(metal && darwin)

package metal

import (
	"github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/internal/errs"
)

// openDevice fails: this build has no Metal driver. The backend's planning
// and packing still build and are tested everywhere, against a fake
// device; the driver itself is built with -tags metal on darwin.
func openDevice() (gpu.Device, error) {
	return nil, errs.New(errs.ResourceUnavailable, "metal: this build has no Metal driver (build with -tags metal for darwin)")
}
