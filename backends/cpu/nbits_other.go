//go:build !amd64 || purego

package cpu

// nbitsWide reports false: this build has no assembly for nbitsCols.
func nbitsWide(bs int) bool { return false }

// nbitsCols is nbitsColsGo.
func nbitsCols(y []float32, q []uint8, qstride int, a, sc, zp []float32, zstride int, asum []float32, kb, bs, ncols int) {
	nbitsColsGo(y, q, qstride, a, sc, zp, zstride, asum, kb, bs, ncols)
}

// nibblesCol is nibblesColGo.
func nibblesCol(dst []float32, q []uint8, kb, bs int, sc, zp []float32) {
	nibblesColGo(dst, q, kb, bs, sc, zp)
}
