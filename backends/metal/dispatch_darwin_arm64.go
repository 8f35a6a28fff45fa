//go:build metal && darwin && arm64

package metal

import "unsafe"

// dispatchSizes encodes dispatchThreadgroups:threadsPerThreadgroup:. On
// arm64 an MTLSize (three 8-byte fields, 24 bytes) is larger than 16 bytes,
// so the AAPCS64 passes each one as a pointer to a caller-made copy: here,
// d.sizes.
func (d *mtlDevice) dispatchSizes() {
	d.send(d.enc, selDispatch, uintptr(unsafe.Pointer(&d.sizes[0])), uintptr(unsafe.Pointer(&d.sizes[1])))
}
