//go:build amd64 && !purego

package cpu

//go:noescape
func sumBytesAVX2(x *byte, n int, flip byte) uint64

// sumBytes is sumBytesGo, by AVX2 64 bytes at a time where the CPU has
// it.
func sumBytes(x []byte, flip byte) uint32 {
	var total uint64
	if n := len(x) &^ 63; hasAVX2FMA && n > 0 {
		total = sumBytesAVX2(&x[0], n, flip)
		x = x[n:]
	}
	return uint32(total) + sumBytesGo(x, flip)
}
