//go:build amd64 && !purego

package cpu

//go:noescape
func avgPlanesAVX(y, x *float32, planes, size int)

// avgPlanes32 sets y[p] to the mean of plane p of x (planes of size
// elements, size > 0), each sum as sum32 takes it: with AVX2 in one
// assembly loop over the planes.
func avgPlanes32(y, x []float32, size int) {
	if len(y) == 0 {
		return
	}
	x = x[:len(y)*size]
	if hasAVX {
		avgPlanesAVX(&y[0], &x[0], len(y), size)
		return
	}
	avgPlanesGo(y, x, size)
}
