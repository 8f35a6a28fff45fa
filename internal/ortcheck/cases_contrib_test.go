//go:build ort

package ortcheck

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
)

// ms is a single-node case of ONNX Runtime's contrib domain
// (com.microsoft, version 1) in a model of default-domain opset 21.
func ms(name, op string, at []onnxbuild.Attr, in ...arg) tc {
	c := c1("com.microsoft/"+name, 21, op, at, in...)
	c.domain = "com.microsoft"
	return c
}

// msg is ms with the node's outputs named: "" for one left out, y0, y1...
// for those the case returns.
func msg(name, op string, at []onnxbuild.Attr, outs []string, in ...arg) tc {
	var ins []string
	for i := range in {
		in[i] = in[i].as(fmt.Sprintf("x%d", i))
		ins = append(ins, in[i].name)
		if in[i].absent {
			ins[i] = ""
		}
	}
	c := graph("com.microsoft/"+name, 21, []onnxbuild.Node{{Name: "n0", Op: op, Domain: "com.microsoft", Inputs: ins, Outputs: outs, Attrs: at}}, in...)
	c.domain = "com.microsoft"
	return c
}

// contribCases cover the transformer ops of ONNX Runtime's contrib
// domain that lintel runs (docs/transformers.md).
var contribCases = []tc{
	ms("Gelu", "Gelu", nil, rng(-5, 5, 2, 3, 8)),
	ms("Gelu/float16", "Gelu", nil, typed(F16, 2, 3, 8)),
	ms("BiasGelu", "BiasGelu", nil, rng(-5, 5, 2, 3, 8), f32(8)),
	ms("FastGelu", "FastGelu", nil, rng(-5, 5, 2, 3, 8)),
	ms("FastGelu/bias", "FastGelu", nil, rng(-5, 5, 2, 3, 8), f32(8).c()),
	ms("QuickGelu", "QuickGelu", nil, rng(-5, 5, 4, 8)),
	ms("QuickGelu/alpha", "QuickGelu", attrs(af("alpha", 1.3)), rng(-5, 5, 4, 8)),
}

func TestContrib(t *testing.T) { runCases(t, contribCases) }

var contribNormCases = []tc{
	ms("SkipLayerNormalization", "SkipLayerNormalization", nil, f32(2, 3, 16), f32(2, 3, 16), f32(16), f32(16)),
	msg("SkipLayerNormalization/bias_sum", "SkipLayerNormalization", attrs(af("epsilon", 1e-5)), names("y0", "", "", "y1"), f32(2, 3, 16), f32(2, 3, 16), f32(16).c(), f32(16).c(), f32(16).c()).outs(F32, F32),
	ms("SkipLayerNormalization/no_beta", "SkipLayerNormalization", nil, f32(2, 3, 16), f32(2, 3, 16), f32(16), none, f32(16)),
	ms("SkipLayerNormalization/skip_broadcast", "SkipLayerNormalization", nil, f32(2, 3, 16), f32(1, 3, 16), f32(16), f32(16)),
	ms("SkipLayerNormalization/skip_2d", "SkipLayerNormalization", nil, f32(2, 3, 16), f32(3, 16), f32(16), f32(16)),
	ms("SkipLayerNormalization/2d", "SkipLayerNormalization", nil, f32(5, 16), f32(5, 16), f32(16), f32(16)),
	ms("SkipLayerNormalization/float16", "SkipLayerNormalization", nil, typed(F16, 2, 3, 16), typed(F16, 2, 3, 16), typed(F16, 16), typed(F16, 16)),
	ms("SkipSimplifiedLayerNormalization", "SkipSimplifiedLayerNormalization", attrs(af("epsilon", 1e-6)), f32(2, 3, 16), f32(2, 3, 16), f32(16)),
	msg("SkipSimplifiedLayerNormalization/bias_sum", "SkipSimplifiedLayerNormalization", attrs(af("epsilon", 1e-6)), names("y0", "", "", "y1"), f32(2, 3, 16), f32(2, 3, 16), f32(16), f32(16)).outs(F32, F32),
	c1("SimplifiedLayerNormalization/default_domain", 21, "SimplifiedLayerNormalization", attrs(af("epsilon", 1e-6)), f32(2, 3, 16), f32(16)),
	c1("SimplifiedLayerNormalization/axis", 21, "SimplifiedLayerNormalization", attrs(ai("axis", 1)), f32(2, 3, 4), f32(3, 4)),
}

func TestContribNorm(t *testing.T) { runCases(t, contribNormCases) }

var contribMatMulCases = []tc{
	ms("FusedMatMul", "FusedMatMul", nil, f32(3, 5), f32(5, 4)),
	ms("FusedMatMul/alpha_transB", "FusedMatMul", attrs(af("alpha", 0.5), ai("transB", 1)), f32(2, 3, 5), f32(4, 5)),
	ms("FusedMatMul/transB_const", "FusedMatMul", attrs(ai("transB", 1)), f32(2, 3, 40), f32(24, 40).c()),
	ms("FusedMatMul/transA", "FusedMatMul", attrs(ai("transA", 1), af("alpha", 2)), f32(2, 5, 3), f32(2, 5, 4)),
	ms("FusedMatMul/both_broadcast", "FusedMatMul", attrs(ai("transA", 1), ai("transB", 1)), f32(2, 1, 5, 3), f32(3, 4, 5)),
	ms("FusedMatMul/const_B", "FusedMatMul", attrs(af("alpha", 0.125)), f32(2, 7, 33), f32(33, 20).c()),
	ms("FusedMatMul/float16", "FusedMatMul", attrs(ai("transB", 1)), typed(F16, 3, 8), typed(F16, 4, 8)),
}

func TestContribMatMul(t *testing.T) { runCases(t, contribMatMulCases) }

// nbits is a MatMulNBits case of 4-bit weights: A (m, K) fed, B, its
// scales and zero points (zp: "" none, "u8" packed, "f" float)
// initializers, and a bias when withBias.
func nbits(name string, m, k, n, block int, zp string, withBias bool, at ...onnxbuild.Attr) tc {
	kb := (k + block - 1) / block
	in := []arg{f32(m, k), typed(U8, n, kb, block/2).c(), rng(0.01, 0.2, n*kb).c()}
	switch zp {
	case "u8":
		in = append(in, typed(U8, n*((kb+1)/2)).c())
	case "f":
		in = append(in, rng(0, 15, n*kb).c())
	default:
		in = append(in, none)
	}
	if withBias {
		in = append(in, none, f32(n).c())
	}
	at = append(at, ai("K", int64(k)), ai("N", int64(n)), ai("bits", 4), ai("block_size", int64(block)))
	return ms("MatMulNBits/"+name, "MatMulNBits", at, in...)
}

var contribNBitsCases = []tc{
	nbits("default_zero_point", 3, 32, 8, 16, "", false),
	nbits("packed_zero_points", 2, 64, 24, 32, "u8", false),
	nbits("odd_blocks", 2, 48, 5, 16, "u8", false),
	nbits("float_zero_points", 4, 32, 6, 16, "f", false),
	nbits("bias", 1, 128, 40, 32, "u8", true),
	nbits("k_not_multiple", 2, 40, 8, 16, "u8", false),
	nbits("accuracy_level", 2, 64, 16, 16, "u8", false, ai("accuracy_level", 1)),
	nbits("large", 5, 256, 300, 64, "u8", true),
	nbits("odd_k", 2, 41, 7, 16, "u8", true),
	nbits("odd_k_tiled", 6, 41, 7, 16, "f", false),
	nbits("tiled_k_not_multiple", 6, 40, 9, 16, "", true),
	ms("MatMulNBits/float16", "MatMulNBits", attrs(ai("K", 32), ai("N", 8), ai("bits", 4), ai("block_size", 16)),
		typed(F16, 3, 32), typed(U8, 8, 2, 8).c(), arg{dt: F16, shape: []int{16}, lo: 0.01, hi: 0.2}.c(), typed(U8, 8).c()),
}

func TestContribNBits(t *testing.T) { runCases(t, contribNBitsCases) }

var contribRotaryCases = []tc{
	ms("RotaryEmbedding/3d", "RotaryEmbedding", attrs(ai("num_heads", 4)), f32(2, 3, 32), ints(0, 9, 2, 3), f32(10, 4), f32(10, 4)),
	ms("RotaryEmbedding/3d_inferred_heads", "RotaryEmbedding", nil, f32(2, 3, 32), ints(0, 9, 2, 3), f32(10, 4), f32(10, 4)),
	ms("RotaryEmbedding/4d_interleaved", "RotaryEmbedding", attrs(ai("interleaved", 1)), f32(2, 4, 3, 8), ints(0, 9, 2, 3), f32(10, 4), f32(10, 4)),
	ms("RotaryEmbedding/offset", "RotaryEmbedding", attrs(ai("num_heads", 2)), f32(2, 3, 16), i64(5), f32(10, 4), f32(10, 4)),
	ms("RotaryEmbedding/rotary_dim", "RotaryEmbedding", attrs(ai("num_heads", 2), ai("rotary_embedding_dim", 8)), f32(2, 3, 32), ints(0, 9, 2, 3), f32(10, 4), f32(10, 4)),
	ms("RotaryEmbedding/rotary_dim_interleaved", "RotaryEmbedding", attrs(ai("num_heads", 2), ai("rotary_embedding_dim", 8), ai("interleaved", 1)), f32(2, 3, 32), ints(0, 9, 2, 3), f32(10, 4), f32(10, 4)),
	ms("RotaryEmbedding/float16", "RotaryEmbedding", attrs(ai("num_heads", 4)), typed(F16, 2, 3, 32), ints(0, 9, 2, 3), typed(F16, 10, 4), typed(F16, 10, 4)),
}

func TestContribRotary(t *testing.T) { runCases(t, contribRotaryCases) }

// kpm is a key_padding_mask of shape (2, t) that keeps the first keys
// of item 0 and masks two keys of item 1.
func kpm(t int) arg {
	v := make([]int32, 2*t)
	for j := range t {
		v[j] = 1
		v[t+j] = 1
	}
	v[t+1], v[2*t-1] = 0, 0
	return arg{dt: I32, shape: []int{2, t}, fixed: bytesOf(v)}
}

// contribMHACases have no packed QKV or KV: ONNX Runtime's CPU kernel
// runs neither, and lintel refuses them too.
var contribMHACases = []tc{
	ms("MultiHeadAttention", "MultiHeadAttention", attrs(ai("num_heads", 2)), f32(2, 4, 16), f32(2, 6, 16), f32(2, 6, 16)),
	ms("MultiHeadAttention/value_width_scale", "MultiHeadAttention", attrs(ai("num_heads", 2), af("scale", 0.3)), f32(2, 4, 16), f32(2, 6, 16), f32(2, 6, 8)),
	ms("MultiHeadAttention/bias", "MultiHeadAttention", attrs(ai("num_heads", 2)), f32(2, 4, 16), f32(2, 6, 16), f32(2, 6, 16), f32(48).c()),
	ms("MultiHeadAttention/key_padding_mask", "MultiHeadAttention", attrs(ai("num_heads", 2)), f32(2, 4, 16), f32(2, 6, 16), f32(2, 6, 16), none, kpm(6)),
	ms("MultiHeadAttention/attention_bias", "MultiHeadAttention", attrs(ai("num_heads", 2)), f32(2, 4, 16), f32(2, 6, 16), f32(2, 6, 16), none, none, f32(1, 2, 4, 6)),
	ms("MultiHeadAttention/attention_bias_batch", "MultiHeadAttention", attrs(ai("num_heads", 2)), f32(2, 4, 16), f32(2, 6, 16), f32(2, 6, 16), none, kpm(6), f32(2, 1, 4, 6)),
	ms("MultiHeadAttention/causal", "MultiHeadAttention", attrs(ai("num_heads", 2), ai("unidirectional", 1)), f32(2, 5, 16), f32(2, 5, 16), f32(2, 5, 16)),
	msg("MultiHeadAttention/past_present", "MultiHeadAttention", attrs(ai("num_heads", 2), ai("unidirectional", 1)), names("y0", "y1", "y2"),
		f32(2, 3, 16), f32(2, 3, 16), f32(2, 3, 16), none, none, none, f32(2, 2, 4, 8), f32(2, 2, 4, 8)).outs(F32, F32, F32),
	msg("MultiHeadAttention/decode", "MultiHeadAttention", attrs(ai("num_heads", 4)), names("y0", "y1", "y2"),
		f32(2, 1, 32), f32(2, 1, 32), f32(2, 1, 32), none, kpm(6), none, f32(2, 4, 5, 8), f32(2, 4, 5, 8)).outs(F32, F32, F32),
	ms("MultiHeadAttention/cross_4d", "MultiHeadAttention", attrs(ai("num_heads", 2)), f32(2, 4, 16), f32(2, 2, 6, 8), f32(2, 2, 6, 8)),
	ms("MultiHeadAttention/float16", "MultiHeadAttention", attrs(ai("num_heads", 2)), typed(F16, 2, 4, 16), typed(F16, 2, 6, 16), typed(F16, 2, 6, 16)),
}

func TestContribMHA(t *testing.T) { runCases(t, contribMHACases) }

// i32c is an int32 initializer of the given shape (nil: a scalar).
func i32c(shape []int, v ...int32) arg {
	if shape == nil {
		shape = []int{}
	}
	return arg{dt: I32, shape: shape, fixed: bytesOf(v), init: true}
}

// gqa is a GroupQueryAttention case whose outputs are the output and
// both present tensors.
func gqa(name string, at []onnxbuild.Attr, in ...arg) tc {
	return msg("GroupQueryAttention/"+name, "GroupQueryAttention", at, names("y0", "y1", "y2"), in...).outs(F32, F32, F32)
}

// heads are GroupQueryAttention's head counts: 4 query heads over 2
// key/value heads.
var heads = []onnxbuild.Attr{ai("num_heads", 4), ai("kv_num_heads", 2)}

func withHeads(a ...onnxbuild.Attr) []onnxbuild.Attr {
	return append(append([]onnxbuild.Attr{}, heads...), a...)
}

var contribGQACases = []tc{
	gqa("prompt", heads, f32(2, 4, 64), f32(2, 4, 32), f32(2, 4, 32), none, none, i32c([]int{2}, 3, 3), i32c(nil, 4)),
	gqa("decode", heads, f32(2, 1, 64), f32(2, 1, 32), f32(2, 1, 32), f32(2, 2, 5, 16), f32(2, 2, 5, 16), i32c([]int{2}, 5, 5), i32c(nil, 6)),
	gqa("decode_buffer", heads, f32(2, 1, 64), f32(2, 1, 32), f32(2, 1, 32), f32(2, 2, 8, 16), f32(2, 2, 8, 16), i32c([]int{2}, 5, 3), i32c(nil, 6)),
	gqa("subsequent_prompt", heads, f32(1, 3, 64), f32(1, 3, 32), f32(1, 3, 32), f32(1, 2, 4, 16), f32(1, 2, 4, 16), i32c([]int{1}, 6), i32c(nil, 7)),
	gqa("packed", heads, f32(2, 4, 128), none, none, none, none, i32c([]int{2}, 3, 3), i32c(nil, 4)),
	gqa("scale_softcap", withHeads(af("scale", 0.2), af("softcap", 1.5)), f32(2, 4, 64), f32(2, 4, 32), f32(2, 4, 32), none, none, i32c([]int{2}, 3, 3), i32c(nil, 4)),
	gqa("local_window", withHeads(ai("local_window_size", 2)), f32(1, 6, 64), f32(1, 6, 32), f32(1, 6, 32), none, none, i32c([]int{1}, 5), i32c(nil, 6)),
	gqa("local_window_decode", withHeads(ai("local_window_size", 3)), f32(2, 1, 64), f32(2, 1, 32), f32(2, 1, 32), f32(2, 2, 6, 16), f32(2, 2, 6, 16), i32c([]int{2}, 6, 6), i32c(nil, 7)),
	gqa("rotary_prompt", withHeads(ai("do_rotary", 1)), f32(2, 4, 64), f32(2, 4, 32), f32(2, 4, 32), none, none, i32c([]int{2}, 3, 3), i32c(nil, 4), f32(16, 8), f32(16, 8)),
	gqa("rotary_interleaved_decode", withHeads(ai("do_rotary", 1), ai("rotary_interleaved", 1)), f32(2, 1, 64), f32(2, 1, 32), f32(2, 1, 32), f32(2, 2, 5, 16), f32(2, 2, 5, 16), i32c([]int{2}, 5, 2), i32c(nil, 6), f32(16, 8), f32(16, 8)),
	gqa("rotary_packed", withHeads(ai("do_rotary", 1)), f32(2, 4, 128), none, none, none, none, i32c([]int{2}, 3, 3), i32c(nil, 4), f32(16, 8), f32(16, 8)),
	gqa("rotary_partial", withHeads(ai("do_rotary", 1)), f32(2, 4, 128), f32(2, 4, 64), f32(2, 4, 64), none, none, i32c([]int{2}, 3, 3), i32c(nil, 4), f32(16, 8), f32(16, 8)),
	gqa("rotary_float16", withHeads(ai("do_rotary", 1)), typed(F16, 2, 1, 64), typed(F16, 2, 1, 32), typed(F16, 2, 1, 32), typed(F16, 2, 2, 5, 16), typed(F16, 2, 2, 5, 16),
		i32c([]int{2}, 5, 5), i32c(nil, 6), typed(F16, 16, 8), typed(F16, 16, 8)).outs(F16, F16, F16),
	gqa("float16", heads, typed(F16, 2, 4, 64), typed(F16, 2, 4, 32), typed(F16, 2, 4, 32), none, none, i32c([]int{2}, 3, 3), i32c(nil, 4)).outs(F16, F16, F16),
}

func TestContribGQA(t *testing.T) { runCases(t, contribGQACases) }

// mask2 is a (2, t) mask_index that masks keys 1 and t-1 of item 1.
func mask2(t int) arg { return kpm(t) }

var contribAttentionCases = []tc{
	ms("Attention", "Attention", attrs(ai("num_heads", 2)), f32(2, 4, 12), f32(12, 48).c(), f32(48).c()),
	// ONNX Runtime 1.24 crashes on a node without bias, so every row has one.
	ms("Attention/fed_weights", "Attention", attrs(ai("num_heads", 4)), f32(2, 3, 8), f32(8, 96), f32(96)),
	ms("Attention/qkv_hidden_sizes", "Attention", attrs(ai("num_heads", 2), ais("qkv_hidden_sizes", 16, 16, 8)), f32(2, 4, 12), f32(12, 40).c(), f32(40).c()),
	ms("Attention/mask_2d", "Attention", attrs(ai("num_heads", 2)), f32(2, 4, 12), f32(12, 48).c(), f32(48).c(), mask2(4)),
	ms("Attention/mask_lengths", "Attention", attrs(ai("num_heads", 2)), f32(2, 4, 12), f32(12, 48).c(), f32(48).c(), i32c([]int{2}, 4, 2).fed()),
	ms("Attention/mask_ends_starts", "Attention", attrs(ai("num_heads", 2)), f32(2, 4, 12), f32(12, 48).c(), f32(48).c(), i32c([]int{4}, 4, 3, 0, 1).fed()),
	ms("Attention/causal_scale", "Attention", attrs(ai("num_heads", 2), ai("unidirectional", 1), af("scale", 0.2)), f32(2, 4, 12), f32(12, 48).c(), f32(48).c()),
	ms("Attention/attention_bias", "Attention", attrs(ai("num_heads", 2)), f32(2, 4, 12), f32(12, 48).c(), f32(48).c(), none, none, f32(1, 2, 4, 4)),
	msg("Attention/past_present", "Attention", attrs(ai("num_heads", 2), ai("unidirectional", 1)), names("y0", "y1"),
		f32(2, 1, 12), f32(12, 48).c(), f32(48).c(), mask2(4), f32(2, 2, 2, 3, 8)).outs(F32, F32),
	ms("Attention/float16", "Attention", attrs(ai("num_heads", 2)), typed(F16, 2, 4, 12), typed(F16, 12, 48).c(), typed(F16, 48).c()),
}

func TestContribAttention(t *testing.T) { runCases(t, contribAttentionCases) }

// ids is an int32 input of shape (2, s) with values in [0, n).
func ids(n, s int) arg { return arg{dt: I32, shape: []int{2, s}, lo: 0, hi: float64(n) - 0.01} }

// contribEmbedCases have no position_ids: ONNX Runtime 1.24 aborts
// creating a session with them, and lintel refuses them.
var contribEmbedCases = []tc{
	msg("EmbedLayerNormalization", "EmbedLayerNormalization", nil, names("y0", "y1"),
		ids(30, 5), ids(2, 5), f32(30, 16).c(), f32(8, 16).c(), f32(2, 16).c(), f32(16).c(), f32(16).c(), ids(2, 5)).outs(F32, I32),
	msg("EmbedLayerNormalization/sum_no_segment", "EmbedLayerNormalization", attrs(af("epsilon", 1e-5)), names("y0", "", "y1"),
		ids(30, 5), none, f32(30, 16).c(), f32(8, 16).c(), none, f32(16).c(), f32(16).c()).outs(F32, F32),
}

func TestContribEmbed(t *testing.T) { runCases(t, contribEmbedCases) }
