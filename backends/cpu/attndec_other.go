//go:build !amd64 || purego

package cpu

// attnDecodeFast is false: this build has no decoding kernels, and
// few-row attention keeps the SGEMM path.
const attnDecodeFast = false

// attnDot4 is attnDot4Go.
func attnDot4(q []float32, qld int, k []float32, kld, nk, d16 int, scale float32, s []float32, sld int) {
	attnDot4Go(q, qld, k, kld, nk, d16, scale, s, sld)
}

// attnDot1 is attnDot1Go.
func attnDot1(q, k []float32, kld, nk, d16 int, scale float32, s []float32) {
	attnDot1Go(q, k, kld, nk, d16, scale, s)
}

// attnPV4 is attnPV4Go.
func attnPV4(p []float32, pld int, v []float32, vld, nk, cols int, y []float32, yld int, acc bool) {
	attnPV4Go(p, pld, v, vld, nk, cols, y, yld, acc)
}

// attnPV1 is attnPV1Go.
func attnPV1(p, v []float32, vld, nk, cols int, y []float32, acc bool) {
	attnPV1Go(p, v, vld, nk, cols, y, acc)
}
