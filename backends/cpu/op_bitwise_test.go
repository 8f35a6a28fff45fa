package cpu

import (
	"errors"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestBitwise(t *testing.T) {
	cases := []struct {
		name string
		op   string
		ins  []*tensor
		dt   payload.DType
		want []byte // the output's bytes
	}{
		{"and int8", "BitwiseAnd", []*tensor{mk([]int{3}, []int8{-1, 0x0f, -128}), mk([]int{3}, []int8{0x35, -1, -1})},
			payload.Int8, payload.AsBytes([]int8{0x35, 0x0f, -128})},
		{"or uint16 broadcast", "BitwiseOr", []*tensor{mk([]int{2, 2}, []uint16{1, 2, 4, 8}), mk([]int{2}, []uint16{0x100, 0x8000})},
			payload.Uint16, payload.AsBytes([]uint16{0x101, 0x8002, 0x104, 0x8008})},
		{"xor int64", "BitwiseXor", []*tensor{mk([]int{2}, []int64{-1, 5}), mk([]int{2}, []int64{1, 3})},
			payload.Int64, payload.AsBytes([]int64{-2, 6})},
		{"xor uint32 scalar", "BitwiseXor", []*tensor{mk([]int{3}, []uint32{0, 1, 0xffffffff}), mk([]int{}, []uint32{0xf0f0f0f0})},
			payload.Uint32, payload.AsBytes([]uint32{0xf0f0f0f0, 0xf0f0f0f1, 0x0f0f0f0f})},
		{"not int32", "BitwiseNot", []*tensor{mk([]int{3}, []int32{0, -1, 5})},
			payload.Int32, payload.AsBytes([]int32{-1, 0, -6})},
		{"not uint8", "BitwiseNot", []*tensor{mk([]int{2}, []uint8{0, 0xf0})},
			payload.Uint8, []byte{0xff, 0x0f}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inputs := []string{"a", "b"}[:len(c.ins)]
			outs, err := runNode(t, nodeCase{node: node(c.op, inputs), opset: 18, outTypes: []payload.DType{c.dt}}, c.ins...)
			if err != nil {
				t.Fatalf("runNode: %v", err)
			}
			if got := outs[0].data; !slices.Equal(got, c.want) {
				t.Errorf("got bytes %v, want %v", got, c.want)
			}
		})
	}
	_, err := runNode(t, nodeCase{node: node("BitwiseAnd", []string{"a", "b"}), opset: 18},
		mk([]int{1}, []float32{1}), mk([]int{1}, []float32{1}))
	if !errors.Is(err, errs.Unsupported) {
		t.Errorf("BitwiseAnd on float32: got %v, want ErrUnsupported", err)
	}
}

func TestBitwiseAllocatesNothing(t *testing.T) {
	k := &bitwiseKernel{op: bitXor, size: 8}
	a, b := mk([]int{4, 8}, make([]int64, 32)), mk([]int{8}, make([]int64, 8))
	out := mk([]int{4, 8}, make([]int64, 32))
	if got := testing.AllocsPerRun(20, func() { _ = k.run([]*tensor{a, b}, []*tensor{out}) }); got != 0 {
		t.Errorf("run allocates %v times, want 0", got)
	}
}
