//go:build ort

package ortcheck

import "testing"

// i32s is an int32 scalar initializer.
func i32s(v int32) arg { return arg{dt: I32, shape: []int{}, fixed: bytesOf([]int32{v}), init: true} }

// signalCases cover DFT, STFT, the window ops and MelWeightMatrix.
var signalCases = []tc{
	// DFT-17: axis attribute, real and complex signals, power-of-two
	// lengths (radix 2), short other ones (direct sum) and long other
	// ones (Bluestein).
	c1("DFT/real_17", 17, "DFT", nil, f32(2, 16, 1)),
	c1("DFT/complex_odd_17", 17, "DFT", nil, f32(3, 15, 2)),
	c1("DFT/axis2_17", 17, "DFT", attrs(ai("axis", 2)), f32(2, 3, 12, 1)),
	c1("DFT/axis_neg_17", 17, "DFT", attrs(ai("axis", -3)), f32(2, 5, 6, 2)),
	c1("DFT/onesided_17", 17, "DFT", attrs(ai("onesided", 1)), f32(3, 16, 1)),
	c1("DFT/onesided_odd_17", 17, "DFT", attrs(ai("onesided", 1)), f32(3, 9, 1)),
	c1("DFT/inverse_17", 17, "DFT", attrs(ai("inverse", 1)), f32(2, 8, 2)),
	c1("DFT/inverse_real_17", 17, "DFT", attrs(ai("inverse", 1)), f32(2, 12, 1)),
	c1("DFT/bluestein_17", 17, "DFT", nil, f32(2, 100, 2)),
	c1("DFT/bluestein_inverse_17", 17, "DFT", attrs(ai("inverse", 1)), f32(1, 400, 2)),
	c1("DFT/pow2_long_17", 17, "DFT", nil, f32(2, 512, 1)),
	c1("DFT/dft_length_pad_17", 17, "DFT", nil, f32(2, 10, 1), i64s(16)),
	c1("DFT/dft_length_cut_17", 17, "DFT", nil, f32(2, 10, 2), i64s(7)),
	c1("DFT/dft_length_fed_17", 17, "DFT", attrs(ai("onesided", 1)), f32(2, 10, 1), i64s(12).fed()),
	c1("DFT/dft_length_int32_17", 17, "DFT", nil, f32(2, 6, 1), i32s(8)),
	c1("DFT/float64_17", 17, "DFT", nil, typed(F64, 2, 16, 2)),
	c1("DFT/float64_odd_17", 17, "DFT", attrs(ai("inverse", 1)), typed(F64, 2, 21, 2)),
	// DFT-20: the axis is an input, -2 by default.
	c1("DFT/default_axis_20", 20, "DFT", nil, f32(3, 8, 2)),
	c1("DFT/axis_input_20", 20, "DFT", nil, f32(2, 10, 3, 1), none, i64s(1)),
	c1("DFT/axis_neg_20", 20, "DFT", attrs(ai("inverse", 1)), f32(2, 10, 3, 2), none, i64s(-4)),
	c1("DFT/axis_fed_20", 20, "DFT", nil, f32(2, 10, 3, 1), none, i64s(2).fed()),
	c1("DFT/onesided_length_20", 20, "DFT", attrs(ai("onesided", 1)), f32(2, 10, 1), i64s(20), i64s(1)),

	// A complex signal's one-sided spectrum is the first half of its
	// spectrum. ONNX Runtime refuses inverse and onesided together (the
	// inverse real FFT, which the spec defines since), so no row has it.
	c1("DFT/complex_onesided_17", 17, "DFT", attrs(ai("onesided", 1)), f32(2, 8, 2)),

	// STFT-17: frame_length, window, both, two-sided.
	c1("STFT/frame_length_17", 17, "STFT", nil, f32(2, 64, 1), i64s(8), none, i64s(16)),
	c1("STFT/window_17", 17, "STFT", nil, f32(2, 64, 1), i64s(8), pos(16)),
	c1("STFT/window_and_length_17", 17, "STFT", nil, f32(1, 50, 1), i64s(5), pos(10), i64s(10)),
	c1("STFT/twosided_17", 17, "STFT", attrs(ai("onesided", 0)), f32(2, 40, 1), i64s(4), pos(12)),
	// ONNX Runtime reads a complex signal's frames from the wrong offsets
	// after the first, and its window as complex values: one frame, no
	// window.
	c1("STFT/complex_onesided_17", 17, "STFT", nil, f32(1, 40, 2), i64s(40), none, i64s(40)),
	c1("STFT/step_fed_17", 17, "STFT", nil, f32(1, 100, 1), i64s(7).fed(), none, i64s(25)),
	c1("STFT/float64_17", 17, "STFT", nil, typed(F64, 2, 64, 1), i64s(16), typed(F64, 32)),

	// The window ops: periodic and symmetric, float and double outputs.
	c1("HannWindow/periodic_17", 17, "HannWindow", nil, i64s(16).fed()).outs(F32),
	c1("HannWindow/symmetric_17", 17, "HannWindow", attrs(ai("periodic", 0)), i32s(11).fed()).outs(F32),
	c1("HannWindow/double_17", 17, "HannWindow", attrs(ai("output_datatype", 11)), i64s(400).fed()).outs(F64),
	c1("HammingWindow/periodic_17", 17, "HammingWindow", nil, i64s(16).fed()).outs(F32),
	c1("HammingWindow/symmetric_17", 17, "HammingWindow", attrs(ai("periodic", 0)), i32s(25).fed()).outs(F32),
	c1("BlackmanWindow/periodic_17", 17, "BlackmanWindow", nil, i64s(32).fed()).outs(F32),
	c1("BlackmanWindow/symmetric_double_17", 17, "BlackmanWindow", attrs(ai("periodic", 0), ai("output_datatype", 11)), i64s(9).fed()).outs(F64),

	// MelWeightMatrix-17.
	c1("MelWeightMatrix/17", 17, "MelWeightMatrix", nil, i64s(10).fed(), i64s(64).fed(), i64s(16000).fed(), fs(20).fed(), fs(8000).fed()).outs(F32),
	c1("MelWeightMatrix/whisper_17", 17, "MelWeightMatrix", nil, i32s(80).fed(), i32s(400).fed(), i32s(16000).fed(), fs(0).fed(), fs(8000).fed()).outs(F32),
	c1("MelWeightMatrix/double_17", 17, "MelWeightMatrix", attrs(ai("output_datatype", 11)), i64s(8).fed(), i64s(16).fed(), i64s(8192).fed(), fs(0).fed(), fs(4096).fed()).outs(F64),
}

func TestSignal(t *testing.T) { runCases(t, signalCases) }
