//go:build amd64 && !purego

package cpu

//go:generate go run pwgroup_gen.go

// The grouped 1×1 Conv kernels of pwgroup_amd64.s: pwGroupGo's outputs,
// sixteen (pwGroupZ, AVX-512) or eight (pwGroupY, AVX2+FMA) positions a
// block, each product fused into its add.

//go:noescape
func pwGroupZ(x *float32, xs int, w, b, y *float32, ys, n, cg, mg, relu int)

//go:noescape
func pwGroupY(x *float32, xs int, w, b, y *float32, ys, n, cg, mg, relu int)

// pwGroupAVX512 selects pwGroupZ: where 512-bit vectors run at full
// width (wide512, decided once at init; tests switch it to compare
// both).
var pwGroupAVX512 = wide512

// pwGroupKernelC is the most input channels a group that pwGroup's
// assembly takes on this CPU: 16 with AVX-512, 14 with AVX2 and FMA,
// none without.
func pwGroupKernelC() int {
	switch {
	case pwGroupAVX512:
		return 16
	case hasAVX2FMA:
		return 14
	}
	return 0
}

// pwGroup is pwGroupGo, in assembly where the CPU has AVX-512 at full
// width (n >= 16) or AVX2 and FMA (n >= 8, cg <= 14).
func pwGroup(x []float32, xs int, w, b, y []float32, ys, n, cg, mg int, relu bool) {
	pwGroupCheck(x, xs, w, b, y, ys, n, cg, mg)
	r := 0
	if relu {
		r = 1
	}
	switch {
	case n <= 0 || mg <= 0 || cg <= 0:
	case pwGroupAVX512 && n >= 16 && cg <= 16:
		pwGroupZ(&x[0], xs, &w[0], &b[0], &y[0], ys, n, cg, mg, r)
	case hasAVX2FMA && n >= 8 && cg <= 14:
		pwGroupY(&x[0], xs, &w[0], &b[0], &y[0], ys, n, cg, mg, r)
	default:
		pwGroupGo(x, xs, w, b, y, ys, n, cg, mg, relu)
	}
}
