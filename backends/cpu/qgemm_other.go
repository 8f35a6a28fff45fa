//go:build !amd64 || purego

package cpu

// qkernAsm lists the assembly kernels: this build has none.
var qkernAsm []qKernel

// qkernBest is the int8 GEMM's kernel: the Go one.
var qkernBest = qKernel{name: "go", l: qLayout{g: 4}, run: qrunGo4, runTaps: qkernTapsGo}

// qpackRow is nil: this build packs A rows in Go.
var qpackRow func(dst, src []byte, n int, mask byte) int32

// interleave4 is interleave4Go in this build.
func interleave4(dst, src []byte, ld, n int, mask byte) { interleave4Go(dst, src, ld, n, mask) }

// qpackRowAsm is empty: this build has no assembly A packer.
var qpackRowAsm []func(dst, src []byte, n int, mask byte) int32

// qpackRowWide is nil: this build packs A rows in Go.
var qpackRowWide func(dst, src []byte, n int, mask byte) int32
