//go:build amd64 && !purego

package cpu

//go:noescape
func sgemvR1B4(kc int, a, b *float32, bstride int, dst *float32)

func init() {
	if hasAVX2FMA {
		rowBlocks4 = sgemvR1B4
	}
}
