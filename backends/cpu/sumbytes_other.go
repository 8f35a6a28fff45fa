//go:build !amd64 || purego

package cpu

// sumBytes is sumBytesGo: this build has no assembly.
func sumBytes(x []byte, flip byte) uint32 { return sumBytesGo(x, flip) }
