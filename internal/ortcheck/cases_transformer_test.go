//go:build ort

package ortcheck

import "testing"

// boolMask is a fixed (4, 6) attn_mask that leaves every row a key, with
// or without the causal mask:
// ONNX Runtime 1.24 does not give zeros for a row with every key masked,
// as ONNX's reference (and lintel) does.
var boolMask = arg{dt: B, shape: []int{4, 6}, init: true, fixed: bytesOf([]bool{
	true, false, true, true, false, true,
	true, false, false, false, false, true,
	true, true, true, true, true, true,
	false, true, false, true, false, true,
})}

// transformerCases cover Attention, RMSNormalization and
// RotaryEmbedding; ONNX Runtime 1.24 runs no SwiGLU (opset 28).
//
// Attention departs from ONNX Runtime 1.24 where ONNX's reference and
// the backend test suite do, so those forms have no rows here: the
// softcap applies before the mask (ONNX Runtime masks first, which maps
// -inf to -softcap), qk_matmul_output_mode 1 and 2 are the scores after
// the softcap and after the mask, and nonpad_kv_seqlen masks the padded
// keys (ONNX Runtime's CPU kernel gives other values).
var transformerCases = []tc{
	c1("Attention/4d_23", 23, "Attention", nil, f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 8)),
	c1("Attention/4d_value_width_scale_23", 23, "Attention", attrs(af("scale", 0.2)), f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 5)),
	c1("Attention/4d_gqa_causal_23", 23, "Attention", attrs(ai("is_causal", 1)), f32(2, 6, 5, 8), f32(2, 2, 5, 8), f32(2, 2, 5, 8)),
	c1("Attention/3d_gqa_23", 23, "Attention", attrs(ai("q_num_heads", 6), ai("kv_num_heads", 3)), f32(2, 4, 48), f32(2, 6, 24), f32(2, 6, 24)),
	c1("Attention/3d_float_mask_23", 23, "Attention", attrs(ai("q_num_heads", 2), ai("kv_num_heads", 2)), f32(2, 4, 16), f32(2, 6, 16), f32(2, 6, 16), f32(4, 6)),
	c1("Attention/4d_mask_4d_23", 23, "Attention", nil, f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 8), f32(2, 3, 4, 6)),
	c1("Attention/4d_mask_heads_broadcast_23", 23, "Attention", nil, f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 8), f32(2, 1, 4, 6)),
	c1("Attention/past_present_23", 23, "Attention", nil, f32(2, 3, 4, 8), f32(2, 3, 2, 8), f32(2, 3, 2, 8), f32(4, 7), f32(2, 3, 5, 8), f32(2, 3, 5, 8)).outs(F32, F32, F32),
	c1("Attention/past_causal_23", 23, "Attention", attrs(ai("is_causal", 1)), f32(1, 4, 3, 8), f32(1, 2, 3, 8), f32(1, 2, 3, 8), none, f32(1, 2, 4, 8), f32(1, 2, 4, 8)).outs(F32, F32, F32),
	c1("Attention/3d_past_present_23", 23, "Attention", attrs(ai("q_num_heads", 4), ai("kv_num_heads", 2)), f32(2, 3, 32), f32(2, 3, 16), f32(2, 3, 16), none, f32(2, 2, 2, 8), f32(2, 2, 2, 8)).outs(F32, F32, F32),
	c1("Attention/softcap_23", 23, "Attention", attrs(af("softcap", 1.5)), f32(2, 2, 4, 8), f32(2, 2, 6, 8), f32(2, 2, 6, 8)),
	c1("Attention/qk_raw_23", 23, "Attention", nil, f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 8)).outs(F32, F32, F32, F32),
	c1("Attention/qk_bias_23", 23, "Attention", attrs(ai("qk_matmul_output_mode", 2)), f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 8), f32(4, 6)).outs(F32, F32, F32, F32),
	c1("Attention/qk_softmax_23", 23, "Attention", attrs(ai("qk_matmul_output_mode", 3)), f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 8), f32(4, 6)).outs(F32, F32, F32, F32),
	c1("Attention/softcap_qk_raw_23", 23, "Attention", attrs(af("softcap", 2)), f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 8)).outs(F32, F32, F32, F32),
	c1("Attention/bool_mask_23", 23, "Attention", nil, f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 8), boolMask),
	c1("Attention/bool_mask_causal_23", 23, "Attention", attrs(ai("is_causal", 1)), f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 8), boolMask),
	c1("Attention/4d_24", 24, "Attention", attrs(ai("is_causal", 1)), f32(2, 3, 4, 8), f32(2, 3, 6, 8), f32(2, 3, 6, 8)),
	c1("Attention/float16_23", 23, "Attention", nil, typed(F16, 2, 3, 4, 8), typed(F16, 2, 3, 6, 8), typed(F16, 2, 3, 6, 8)),

	c1("RMSNormalization/default_23", 23, "RMSNormalization", nil, f32(2, 3, 8), f32(8)),
	c1("RMSNormalization/axis1_eps_23", 23, "RMSNormalization", attrs(ai("axis", 1), af("epsilon", 0.1)), f32(2, 3, 4), f32(3, 4)),
	c1("RMSNormalization/axis0_23", 23, "RMSNormalization", attrs(ai("axis", 0)), f32(3, 5), f32(3, 5)),

	c1("RotaryEmbedding/4d_23", 23, "RotaryEmbedding", nil, f32(2, 4, 3, 8), f32(10, 4), f32(10, 4), ints(0, 9, 2, 3)),
	c1("RotaryEmbedding/interleaved_23", 23, "RotaryEmbedding", attrs(ai("interleaved", 1)), f32(2, 4, 3, 8), f32(10, 4), f32(10, 4), ints(0, 9, 2, 3)),
	c1("RotaryEmbedding/3d_rotary_dim_23", 23, "RotaryEmbedding", attrs(ai("num_heads", 4), ai("rotary_embedding_dim", 4)), f32(2, 3, 32), f32(10, 2), f32(10, 2), ints(0, 9, 2, 3)),
	c1("RotaryEmbedding/no_positions_23", 23, "RotaryEmbedding", nil, f32(2, 4, 3, 8), f32(2, 3, 4), f32(2, 3, 4)),
}

func TestTransformer(t *testing.T) { runCases(t, transformerCases) }
