//go:build ort

package ortcheck

import "testing"

// lossNormCases cover the loss ops, Hardmax, LpNormalization, Einsum,
// Det, GroupNormalization, LRN, MeanVarianceNormalization, Shrink and
// Swish.
var lossNormCases = []tc{
	c1("NegativeLogLikelihoodLoss/mean_13", 13, "NegativeLogLikelihoodLoss", nil, f32(3, 5), ints(0, 4, 3)),
	c1("NegativeLogLikelihoodLoss/none_NCd1_22", 22, "NegativeLogLikelihoodLoss", attrs(as("reduction", "none")), f32(3, 5, 2), ints(0, 4, 3, 2)),
	c1("NegativeLogLikelihoodLoss/sum_weight_ii_13", 13, "NegativeLogLikelihoodLoss", attrs(as("reduction", "sum"), ai("ignore_index", 1)),
		f32(3, 5, 2, 2), ints(0, 4, 3, 2, 2), pos(5)),
	c1("NegativeLogLikelihoodLoss/mean_weight_ii_12", 12, "NegativeLogLikelihoodLoss", attrs(ai("ignore_index", 2)), f32(4, 3), ints(0, 2, 4), pos(3)),
	c1("SoftmaxCrossEntropyLoss/mean_13", 13, "SoftmaxCrossEntropyLoss", nil, f32(3, 5), ints(0, 4, 3)),
	c1("SoftmaxCrossEntropyLoss/none_log_prob_13", 13, "SoftmaxCrossEntropyLoss", attrs(as("reduction", "none")), f32(3, 5, 2), ints(0, 4, 3, 2)).outs(F32, F32),
	c1("SoftmaxCrossEntropyLoss/sum_weight_ii_13", 13, "SoftmaxCrossEntropyLoss", attrs(as("reduction", "sum"), ai("ignore_index", 0)),
		f32(2, 4, 3), ints(0, 3, 2, 3), pos(4)).outs(F32, F32),

	c1("Hardmax/default_13", 13, "Hardmax", nil, f32(3, 4, 5)),
	c1("Hardmax/axis0_13", 13, "Hardmax", attrs(ai("axis", 0)), f32(3, 4, 5)),
	c1("Hardmax/default_11", 11, "Hardmax", nil, f32(3, 4, 5)),
	c1("Hardmax/axis2_11", 11, "Hardmax", attrs(ai("axis", 2)), f32(3, 4, 5)),

	c1("LpNormalization/default_13", 13, "LpNormalization", nil, f32(2, 3, 4)),
	c1("LpNormalization/p1_axis0_13", 13, "LpNormalization", attrs(ai("p", 1), ai("axis", 0)), f32(3, 4)),
	c1("LpNormalization/p2_axis1_13", 13, "LpNormalization", attrs(ai("axis", 1)), f32(2, 3, 4)),

	c1("Einsum/matmul_12", 12, "Einsum", attrs(as("equation", "bij,bjk->bik")), f32(2, 3, 4), f32(2, 4, 5)),
	c1("Einsum/implicit_12", 12, "Einsum", attrs(as("equation", "ij,jk")), f32(3, 4), f32(4, 2)),
	c1("Einsum/trace_12", 12, "Einsum", attrs(as("equation", "ii")), f32(4, 4)),
	c1("Einsum/diagonal_12", 12, "Einsum", attrs(as("equation", "...ii->...i")), f32(2, 3, 3)),
	c1("Einsum/outer_12", 12, "Einsum", attrs(as("equation", "i,j->ij")), f32(3), f32(4)),
	c1("Einsum/transpose_12", 12, "Einsum", attrs(as("equation", "ij->ji")), f32(3, 4)),
	c1("Einsum/sum_12", 12, "Einsum", attrs(as("equation", "ijk->k")), f32(2, 3, 4)),
	c1("Einsum/int64_12", 12, "Einsum", attrs(as("equation", "ij,j->i")), typed(I64, 3, 4), typed(I64, 4)),

	c1("Det/2d_11", 11, "Det", nil, f32(3, 3)),
	c1("Det/batch_22", 22, "Det", nil, f32(4, 2, 5, 5)),

	c1("GroupNormalization/21", 21, "GroupNormalization", attrs(ai("num_groups", 2)), f32(3, 4, 2, 2), f32(4), f32(4)),
	c1("GroupNormalization/eps_21", 21, "GroupNormalization", attrs(ai("num_groups", 3), af("epsilon", 0.01)), f32(2, 6, 5), f32(6), f32(6)),

	c1("LRN/default_13", 13, "LRN", attrs(ai("size", 3)), f32(2, 5, 3, 3)),
	// ONNX Runtime refuses an even size and a rank other than 4, which
	// the spec allows.
	c1("LRN/attrs_13", 13, "LRN", attrs(ai("size", 5), af("alpha", 0.001), af("beta", 0.6), af("bias", 2)), f32(2, 6, 4, 3)),

	c1("MeanVarianceNormalization/default_13", 13, "MeanVarianceNormalization", nil, f32(3, 3, 3, 2)),
	c1("MeanVarianceNormalization/axes_9", 9, "MeanVarianceNormalization", attrs(ais("axes", 1)), f32(3, 4)),

	c1("Shrink/hard_9", 9, "Shrink", attrs(af("lambd", 1)), f32(3, 4)),
	c1("Shrink/soft_9", 9, "Shrink", attrs(af("lambd", 0.5), af("bias", 0.5)), f32(3, 4)),
	c1("Swish/default_24", 24, "Swish", nil, f32(3, 4)),
	c1("Swish/alpha_24", 24, "Swish", attrs(af("alpha", 0.5)), f32(3, 4)),
}

func TestLossNorm(t *testing.T) { runCases(t, lossNormCases) }
