//go:build metal && darwin && amd64

package metal

// dispatchSizes encodes dispatchThreadgroups:threadsPerThreadgroup:. On
// amd64 an MTLSize (24 bytes) is of class MEMORY in the System V ABI: both
// are passed on the stack, in order, and take no registers. The four zeros
// fill the integer registers the call leaves unused (rdx, rcx, r8, r9), so
// that the six size words land on the stack.
func (d *mtlDevice) dispatchSizes() {
	g, t := &d.sizes[0], &d.sizes[1]
	d.send(d.enc, selDispatch, 0, 0, 0, 0,
		uintptr(g[0]), uintptr(g[1]), uintptr(g[2]), uintptr(t[0]), uintptr(t[1]), uintptr(t[2]))
}
