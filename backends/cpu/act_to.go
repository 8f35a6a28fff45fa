package cpu

// Two-operand activations: d = f(x) where the in-place activations of
// epilogue.go would need x copied into d first. The builds without an
// AVX loop for them (epilogue_other.go, epilogue_arm64.go) run the copy
// and the in-place activation block by block, so that both stay in L1.

// reluToBlocks sets d[i] = actRelu32's value of x[i], block by block.
func reluToBlocks(d, x []float32) {
	x = x[:len(d)]
	for b0 := 0; b0 < len(d); b0 += ewBlock {
		b1 := min(b0+ewBlock, len(d))
		copy(d[b0:b1], x[b0:b1])
		actRelu32(d[b0:b1])
	}
}

// clipToBlocks sets d[i] = actClip32's value of x[i], block by block.
func clipToBlocks(d, x []float32, lo, hi float32) {
	x = x[:len(d)]
	for b0 := 0; b0 < len(d); b0 += ewBlock {
		b1 := min(b0+ewBlock, len(d))
		copy(d[b0:b1], x[b0:b1])
		actClip32(d[b0:b1], lo, hi)
	}
}
