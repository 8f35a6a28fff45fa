package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestDFTRule(t *testing.T) {
	dft := func(attrs ...Attr) *Node { return nd("DFT", nil, nil, attrs...) }
	inv, one := aI("inverse", 1), aI("onesided", 1)
	runRules(t, []ruleCase{
		// Opset 17: the axis attribute, 1 by default.
		{name: "real 17", opset: 17, node: dft(), in: []ruleIn{in(f32, 2, 10, 1)}, want: []sh{{f32, d(2, 10, 2)}}},
		{name: "complex 17", opset: 17, node: dft(), in: []ruleIn{in(f32, 2, 10, 2)}, want: []sh{{f32, d(2, 10, 2)}}},
		{name: "axis 2", opset: 17, node: dft(aI("axis", 2)), in: []ruleIn{in(f32, 2, 3, 8, 1)}, want: []sh{{f32, d(2, 3, 8, 2)}}},
		{name: "axis -2", opset: 17, node: dft(aI("axis", -2), one), in: []ruleIn{in(f32, 2, 3, 8, 1)}, want: []sh{{f32, d(2, 3, 5, 2)}}},
		{name: "onesided odd", opset: 17, node: dft(one), in: []ruleIn{in(f32, 2, 9, 1)}, want: []sh{{f32, d(2, 5, 2)}}},
		{name: "dft_length pads", opset: 17, node: dft(), in: []ruleIn{in(f32, 2, 10, 1), is(i64, 16)}, want: []sh{{f32, d(2, 16, 2)}}},
		{name: "dft_length onesided", opset: 17, node: dft(one), in: []ruleIn{in(f32, 2, 10, 1), is(i32, 7)}, want: []sh{{f32, d(2, 4, 2)}}},
		{name: "dft_length unknown", opset: 17, node: dft(), in: []ruleIn{in(f32, 2, 10, 1), in(i64)}, want: []sh{{f32, d(2, -1, 2)}}},
		{name: "irfft", opset: 17, node: dft(inv, one), in: []ruleIn{in(f32, 1, 6, 10, 2)}, want: []sh{{f32, d(1, 10, 10, 1)}}},
		{name: "irfft dft_length", opset: 17, node: dft(inv, one), in: []ruleIn{in(f32, 1, 6, 2), is(i64, 11)}, want: []sh{{f32, d(1, 11, 1)}}},
		{name: "inverse", opset: 17, node: dft(inv), in: []ruleIn{in(f32, 1, 6, 2)}, want: []sh{{f32, d(1, 6, 2)}}},
		{name: "partial", opset: 17, node: dft(one), in: []ruleIn{in(f32, -1, -1, 1)}, want: []sh{{f32, d(-1, -1, 2)}}},
		{name: "unranked", opset: 17, node: dft(), in: []ruleIn{unr(f32)}, want: []sh{{f32, nil}}},
		{name: "float64", opset: 17, node: dft(), in: []ruleIn{in(payload.Float64, 1, 4, 1)}, want: []sh{{payload.Float64, d(1, 4, 2)}}},
		// Opset 20: the axis input, -2 by default.
		{name: "default axis 20", opset: 20, node: dft(), in: []ruleIn{in(f32, 2, 3, 8, 1)}, want: []sh{{f32, d(2, 3, 8, 2)}}},
		{name: "default axis onesided 20", opset: 20, node: dft(one), in: []ruleIn{in(f32, 2, 3, 8, 1)}, want: []sh{{f32, d(2, 3, 5, 2)}}},
		{name: "axis input", opset: 20, node: dft(one), in: []ruleIn{in(f32, 2, 10, 3, 1), absent, is(i64, 1)}, want: []sh{{f32, d(2, 6, 3, 2)}}},
		{name: "axis input negative", opset: 20, node: dft(one), in: []ruleIn{in(f32, 2, 10, 3, 1), absent, is(i64, -4)}, want: []sh{{f32, d(2, 10, 3, 2)}}},
		{name: "axis unknown", opset: 20, node: dft(one), in: []ruleIn{in(f32, 2, 10, 3, 1), absent, in(i64)}, want: []sh{{f32, d(-1, -1, -1, 2)}}},
		{name: "opset 20 ignores the attribute", opset: 20, node: dft(aI("axis", 1)), in: []ruleIn{in(f32, 2, 3, 8, 1)}, want: []sh{{f32, d(2, 3, 8, 2)}}},
		// Bad shapes and values.
		{name: "before 17", opset: 16, node: dft(), in: []ruleIn{in(f32, 2, 10, 1)}, err: unsupp},
		{name: "rank 1", opset: 17, node: dft(), in: []ruleIn{in(f32, 2)}, err: invalid},
		{name: "last dim 3", opset: 17, node: dft(), in: []ruleIn{in(f32, 2, 10, 3)}, err: invalid},
		{name: "axis on the last dim", opset: 17, node: dft(aI("axis", 2)), in: []ruleIn{in(f32, 2, 10, 1)}, err: invalid},
		{name: "axis -1", opset: 17, node: dft(aI("axis", -1)), in: []ruleIn{in(f32, 2, 10, 1)}, err: invalid},
		{name: "axis input out of range", opset: 20, runtime: true, node: dft(), in: []ruleIn{in(f32, 2, 10, 1), absent, is(i64, -4)}, err: mismatch},
		{name: "axis input not scalar", opset: 20, runtime: true, node: dft(), in: []ruleIn{in(f32, 2, 10, 1), absent, iv(0, 1)}, err: mismatch},
		{name: "dft_length 0", opset: 17, runtime: true, node: dft(), in: []ruleIn{in(f32, 2, 10, 1), is(i64, 0)}, err: mismatch},
		{name: "dft_length not scalar", opset: 17, node: dft(), in: []ruleIn{in(f32, 2, 10, 1), iv(4, 4)}, err: invalid},
		{name: "irfft of one bin", opset: 17, node: dft(inv, one), in: []ruleIn{in(f32, 2, 1, 2)}, err: invalid},
		{name: "inverse 2", opset: 17, node: dft(aI("inverse", 2)), in: []ruleIn{in(f32, 2, 10, 1)}, err: invalid},
		{name: "three inputs at 17", opset: 17, node: dft(), in: []ruleIn{in(f32, 2, 10, 1), absent, is(i64, 1)}, err: invalid},
	})
	wantNoAllocs(t, ruleCase{name: "dft 20", opset: 20, node: dft(one), in: []ruleIn{in(f32, 2, 10, 3, 1), is(i64, 16), is(i64, 1)}})
}

func TestSTFTRule(t *testing.T) {
	stft := func(attrs ...Attr) *Node { return nd("STFT", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "frame_length", opset: 17, node: stft(), in: []ruleIn{in(f32, 1, 128, 1), is(i64, 8), absent, is(i64, 16)}, want: []sh{{f32, d(1, 15, 9, 2)}}},
		{name: "window", opset: 17, node: stft(), in: []ruleIn{in(f32, 1, 128, 1), is(i64, 8), in(f32, 16)}, want: []sh{{f32, d(1, 15, 9, 2)}}},
		{name: "both", opset: 17, node: stft(aI("onesided", 0)), in: []ruleIn{in(f32, 2, 50, 2), is(i32, 5), in(f32, 10), is(i32, 10)}, want: []sh{{f32, d(2, 9, 10, 2)}}},
		{name: "whole signal", opset: 17, node: stft(), in: []ruleIn{in(f32, 3, 20, 1), is(i64, 4)}, want: []sh{{f32, d(3, 1, 11, 2)}}},
		{name: "rank 2 signal", opset: 17, node: stft(), in: []ruleIn{in(f32, 3, 20), is(i64, 4), absent, is(i64, 8)}, want: []sh{{f32, d(3, 4, 5, 2)}}},
		{name: "step unknown", opset: 17, node: stft(), in: []ruleIn{in(f32, 1, 128, 1), in(i64), in(f32, 16)}, want: []sh{{f32, d(1, -1, 9, 2)}}},
		{name: "length unknown", opset: 17, node: stft(), in: []ruleIn{in(f32, 1, 128, 1), is(i64, 8), absent, in(i64)}, want: []sh{{f32, d(1, -1, -1, 2)}}},
		{name: "signal unranked", opset: 17, node: stft(), in: []ruleIn{unr(f32), is(i64, 8)}, want: []sh{{f32, d(-1, -1, -1, 2)}}},
		{name: "window longer than the signal", opset: 17, node: stft(), in: []ruleIn{in(f32, 1, 8, 1), is(i64, 8), in(f32, 16)}, err: invalid},
		{name: "window and length disagree", opset: 17, node: stft(), in: []ruleIn{in(f32, 1, 64, 1), is(i64, 8), in(f32, 16), is(i64, 8)}, err: invalid},
		{name: "step 0", opset: 17, runtime: true, node: stft(), in: []ruleIn{in(f32, 1, 64, 1), is(i64, 0), in(f32, 16)}, err: mismatch},
		{name: "length 0", opset: 17, runtime: true, node: stft(), in: []ruleIn{in(f32, 1, 64, 1), is(i64, 1), absent, is(i64, 0)}, err: mismatch},
		{name: "window rank 2", opset: 17, node: stft(), in: []ruleIn{in(f32, 1, 64, 1), is(i64, 8), in(f32, 4, 4)}, err: invalid},
		{name: "signal last dim 3", opset: 17, node: stft(), in: []ruleIn{in(f32, 1, 64, 3), is(i64, 8), in(f32, 4)}, err: invalid},
		{name: "onesided 3", opset: 17, node: stft(aI("onesided", 3)), in: []ruleIn{in(f32, 1, 64, 1), is(i64, 8)}, err: invalid},
	})
	wantNoAllocs(t, ruleCase{name: "stft", opset: 17, node: stft(), in: []ruleIn{in(f32, 1, 128, 1), is(i64, 8), in(f32, 16), is(i64, 16)}})
}

func TestSignalWindowRule(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "hann", opset: 17, node: nd("HannWindow", nil, nil), in: []ruleIn{is(i32, 10)}, want: []sh{{f32, d(10)}}},
		{name: "hamming double", opset: 17, node: nd("HammingWindow", nil, nil, aI("output_datatype", 11)), in: []ruleIn{is(i64, 4)}, want: []sh{{payload.Float64, d(4)}}},
		{name: "blackman int8", opset: 17, node: nd("BlackmanWindow", nil, nil, aI("output_datatype", 3), aI("periodic", 0)), in: []ruleIn{is(i64, 4)}, want: []sh{{payload.Int8, d(4)}}},
		{name: "size unknown", opset: 17, node: nd("HannWindow", nil, nil), in: []ruleIn{in(i64)}, want: []sh{{f32, d(-1)}}},
		{name: "size 0", opset: 17, node: nd("HannWindow", nil, nil), in: []ruleIn{is(i64, 0)}, want: []sh{{f32, d(0)}}},
		{name: "negative size", opset: 17, runtime: true, node: nd("HannWindow", nil, nil), in: []ruleIn{is(i64, -1)}, err: mismatch},
		{name: "size of rank 2", opset: 17, node: nd("HannWindow", nil, nil), in: []ruleIn{in(i64, 1, 1)}, err: invalid},
		{name: "bool output", opset: 17, node: nd("HannWindow", nil, nil, aI("output_datatype", 9)), in: []ruleIn{is(i64, 4)}, err: invalid},
		{name: "string output", opset: 17, node: nd("HannWindow", nil, nil, aI("output_datatype", 8)), in: []ruleIn{is(i64, 4)}, err: invalid},
		{name: "periodic 2", opset: 17, node: nd("HannWindow", nil, nil, aI("periodic", 2)), in: []ruleIn{is(i64, 4)}, err: invalid},
		{name: "before 17", opset: 16, node: nd("BlackmanWindow", nil, nil), in: []ruleIn{is(i64, 4)}, err: unsupp},
	})
	wantNoAllocs(t, ruleCase{name: "hann", opset: 17, node: nd("HannWindow", nil, nil), in: []ruleIn{is(i64, 400)}})
}

func TestMelWeightMatrixRule(t *testing.T) {
	mel := func(attrs ...Attr) *Node { return nd("MelWeightMatrix", nil, nil, attrs...) }
	args := func(bins, n int64) []ruleIn {
		return []ruleIn{is(i32, bins), is(i32, n), is(i32, 8192), fs(f32, 0), fs(f32, 4096)}
	}
	runRules(t, []ruleCase{
		{name: "float", opset: 17, node: mel(), in: args(8, 16), want: []sh{{f32, d(9, 8)}}},
		{name: "odd length double", opset: 17, node: mel(aI("output_datatype", 11)), in: args(3, 15), want: []sh{{payload.Float64, d(8, 3)}}},
		{name: "unknown", opset: 17, node: mel(), in: []ruleIn{in(i64), in(i64), in(i64), in(f32), in(f32)}, want: []sh{{f32, d(-1, -1)}}},
		{name: "no bins", opset: 17, runtime: true, node: mel(), in: args(0, 16), err: mismatch},
		{name: "no length", opset: 17, runtime: true, node: mel(), in: args(8, 0), err: mismatch},
		{name: "vector input", opset: 17, node: mel(), in: []ruleIn{is(i32, 8), is(i32, 16), in(i32, 2, 2), fs(f32, 0), fs(f32, 1)}, err: invalid},
		{name: "four inputs", opset: 17, node: mel(), in: args(8, 16)[:4], err: invalid},
	})
	wantNoAllocs(t, ruleCase{name: "mel", opset: 17, node: mel(), in: args(80, 400)})
}
