//go:build ort

package ortcheck

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
)

// acts is an activations attribute.
func acts(names ...string) onnxbuild.Attr {
	return onnxbuild.Attr{Name: "activations", Type: 8, Strings: names}
}

// lens is an int32 sequence_lens initializer.
func lens(v ...int32) arg {
	return arg{dt: I32, shape: []int{len(v)}, fixed: bytesOf(v), init: true}
}

// wt is a weight input of small magnitude, so that the gates do not
// saturate.
func wt(shape ...int) arg { return rng(-0.6, 0.6, shape...) }

// The recurrent ops over X of 4 steps, a batch of 3 and 5 features, with
// a hidden size of 6. ONNX Runtime runs them from opset 7, float32 only,
// and refuses layout 1 (the suite's batchwise tests and the unit tests
// cover it).
var rnnCases = []tc{
	c1("RNN/defaults_7", 7, "RNN", attrs(ai("hidden_size", 6)), f32(4, 3, 5), wt(1, 6, 5), wt(1, 6, 6)).outs(F32, F32),
	c1("RNN/bias_h0_14", 14, "RNN", attrs(ai("hidden_size", 6)), f32(4, 3, 5), wt(1, 6, 5), wt(1, 6, 6), wt(1, 12), none, f32(1, 3, 6)).outs(F32, F32),
	c1("RNN/reverse_lens_14", 14, "RNN", attrs(ai("hidden_size", 6), as("direction", "reverse")),
		f32(4, 3, 5), wt(1, 6, 5), wt(1, 6, 6), wt(1, 12), lens(4, 2, 1), f32(1, 3, 6)).outs(F32, F32),
	c1("RNN/bidirectional_lens_22", 22, "RNN", attrs(ai("hidden_size", 6), as("direction", "bidirectional"), acts("Relu", "Sigmoid")),
		f32(4, 3, 5), wt(2, 6, 5), wt(2, 6, 6).c(), wt(2, 12), lens(3, 4, 2)).outs(F32, F32),
	c1("RNN/clip_affine_14", 14, "RNN", attrs(ai("hidden_size", 6), af("clip", 0.5), acts("Affine"), afs("activation_alpha", 0.7), afs("activation_beta", 0.1)),
		f32(4, 3, 5), wt(1, 6, 5), wt(1, 6, 6)).outs(F32, F32),
	c1("RNN/leakyrelu_elu_14", 14, "RNN", attrs(ai("hidden_size", 6), as("direction", "bidirectional"), acts("LeakyRelu", "Elu"), afs("activation_alpha", 0.2, 0.5)),
		f32(4, 3, 5), wt(2, 6, 5), wt(2, 6, 6)).outs(F32, F32),
	c1("RNN/softsign_14", 14, "RNN", attrs(ai("hidden_size", 6), acts("Softsign")), f32(4, 3, 5), wt(1, 6, 5), wt(1, 6, 6)).outs(F32, F32),
	c1("RNN/softplus_14", 14, "RNN", attrs(ai("hidden_size", 6), acts("Softplus")), f32(4, 3, 5), wt(1, 6, 5), wt(1, 6, 6)).outs(F32, F32),
	c1("RNN/hardsigmoid_14", 14, "RNN", attrs(ai("hidden_size", 6), acts("HardSigmoid"), afs("activation_alpha", 0.3), afs("activation_beta", 0.4)),
		f32(4, 3, 5), wt(1, 6, 5), wt(1, 6, 6)).outs(F32, F32),
	c1("RNN/scaledtanh_14", 14, "RNN", attrs(ai("hidden_size", 6), acts("ScaledTanh"), afs("activation_alpha", 1.5), afs("activation_beta", 0.8)),
		f32(4, 3, 5), wt(1, 6, 5), wt(1, 6, 6)).outs(F32, F32),
	c1("RNN/thresholdedrelu_14", 14, "RNN", attrs(ai("hidden_size", 6), acts("ThresholdedRelu"), afs("activation_alpha", 0.1)),
		f32(4, 3, 5), wt(1, 6, 5), wt(1, 6, 6)).outs(F32, F32),

	c1("GRU/defaults_7", 7, "GRU", attrs(ai("hidden_size", 6)), f32(4, 3, 5), wt(1, 18, 5), wt(1, 18, 6)).outs(F32, F32),
	c1("GRU/bias_h0_14", 14, "GRU", attrs(ai("hidden_size", 6)), f32(4, 3, 5), wt(1, 18, 5).c(), wt(1, 18, 6).c(), wt(1, 36), none, f32(1, 3, 6)).outs(F32, F32),
	c1("GRU/linear_before_reset_14", 14, "GRU", attrs(ai("hidden_size", 6), ai("linear_before_reset", 1)),
		f32(4, 3, 5), wt(1, 18, 5), wt(1, 18, 6), wt(1, 36), none, f32(1, 3, 6)).outs(F32, F32),
	c1("GRU/reverse_lens_14", 14, "GRU", attrs(ai("hidden_size", 6), as("direction", "reverse")),
		f32(4, 3, 5), wt(1, 18, 5), wt(1, 18, 6), wt(1, 36), lens(4, 0, 2), f32(1, 3, 6)).outs(F32, F32),
	c1("GRU/bidirectional_lens_lbr_22", 22, "GRU", attrs(ai("hidden_size", 6), as("direction", "bidirectional"), ai("linear_before_reset", 1)),
		f32(4, 3, 5), wt(2, 18, 5).c(), wt(2, 18, 6).c(), wt(2, 36), lens(3, 4, 1), f32(2, 3, 6)).outs(F32, F32),
	c1("GRU/clip_acts_14", 14, "GRU", attrs(ai("hidden_size", 6), af("clip", 0.4), acts("HardSigmoid", "Softsign"), afs("activation_alpha", 0.3), afs("activation_beta", 0.6)),
		f32(4, 3, 5), wt(1, 18, 5), wt(1, 18, 6), wt(1, 36)).outs(F32, F32),
	graph("GRU/only_Y_h_14", 14, []onnxbuild.Node{nd("GRU", names("x", "w", "r"), names("", "y0"), ai("hidden_size", 6))},
		f32(4, 3, 5).as("x"), wt(1, 18, 5).as("w"), wt(1, 18, 6).as("r")),

	c1("LSTM/defaults_7", 7, "LSTM", attrs(ai("hidden_size", 6)), f32(4, 3, 5), wt(1, 24, 5), wt(1, 24, 6)).outs(F32, F32, F32),
	c1("LSTM/all_inputs_14", 14, "LSTM", attrs(ai("hidden_size", 6)),
		f32(4, 3, 5), wt(1, 24, 5).c(), wt(1, 24, 6).c(), wt(1, 48), lens(4, 2, 3), f32(1, 3, 6), f32(1, 3, 6), wt(1, 18)).outs(F32, F32, F32),
	c1("LSTM/reverse_lens_14", 14, "LSTM", attrs(ai("hidden_size", 6), as("direction", "reverse")),
		f32(4, 3, 5), wt(1, 24, 5), wt(1, 24, 6), wt(1, 48), lens(2, 0, 4), f32(1, 3, 6), f32(1, 3, 6), wt(1, 18)).outs(F32, F32, F32),
	c1("LSTM/bidirectional_22", 22, "LSTM", attrs(ai("hidden_size", 6), as("direction", "bidirectional")),
		f32(4, 3, 5), wt(2, 24, 5).c(), wt(2, 24, 6).c(), wt(2, 48), lens(3, 4, 1), f32(2, 3, 6), f32(2, 3, 6), wt(2, 18)).outs(F32, F32, F32),
	c1("LSTM/input_forget_clip_14", 14, "LSTM", attrs(ai("hidden_size", 6), ai("input_forget", 1), af("clip", 0.5)),
		f32(4, 3, 5), wt(1, 24, 5), wt(1, 24, 6), wt(1, 48)).outs(F32, F32, F32),
	c1("LSTM/acts_14", 14, "LSTM", attrs(ai("hidden_size", 6), as("direction", "bidirectional"),
		acts("HardSigmoid", "Softsign", "Elu", "Sigmoid", "ScaledTanh", "Affine"), afs("activation_alpha", 0.3, 0.9, 1.2, 0.6), afs("activation_beta", 0.5, 0.7, 0.1)),
		f32(4, 3, 5), wt(2, 24, 5), wt(2, 24, 6), wt(2, 48)).outs(F32, F32, F32),
	c1("LSTM/silero_batch1_14", 14, "LSTM", attrs(ai("hidden_size", 32)), f32(1, 1, 32), wt(1, 128, 32).c(), wt(1, 128, 32).c(), wt(1, 256).c(), none, f32(1, 1, 32), f32(1, 1, 32)).outs(F32, F32, F32),
	graph("LSTM/only_Y_c_14", 14, []onnxbuild.Node{nd("LSTM", names("x", "w", "r"), names("", "", "y0"), ai("hidden_size", 6))},
		f32(4, 3, 5).as("x"), wt(1, 24, 5).as("w"), wt(1, 24, 6).as("r")),
}

func TestRecurrent(t *testing.T) { runCases(t, rnnCases) }
