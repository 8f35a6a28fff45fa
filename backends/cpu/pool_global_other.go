//go:build !amd64 || purego

package cpu

// avgPlanes32 sets y[p] to the mean of plane p of x (planes of size
// elements, size > 0).
func avgPlanes32(y, x []float32, size int) { avgPlanesGo(y, x, size) }
