//go:build ort

package ortcheck

import (
	"testing"
)

// convCases cover convolution, transposed convolution, pooling and batch
// normalization.
var convCases = []tc{
	// Conv: 1-D and 2-D, groups, depthwise, dilations, strides, pads,
	// every auto_pad, with and without bias.
	c1("Conv/bias_11", 11, "Conv", nil, f32(1, 3, 8, 8), f32(4, 3, 3, 3).c(), f32(4).c()),
	c1("Conv/no_bias_11", 11, "Conv", nil, f32(1, 3, 8, 8), f32(4, 3, 3, 3).c()),
	c1("Conv/strides2_11", 11, "Conv", attrs(ais("strides", 2, 2)), f32(1, 3, 9, 8), f32(4, 3, 3, 3).c(), f32(4).c()),
	c1("Conv/pads_11", 11, "Conv", attrs(ais("pads", 1, 1, 1, 1)), f32(1, 3, 8, 8), f32(4, 3, 3, 3).c(), f32(4).c()),
	c1("Conv/asym_pads_11", 11, "Conv", attrs(ais("pads", 0, 1, 2, 1)), f32(1, 3, 8, 8), f32(4, 3, 3, 3).c()),
	c1("Conv/dilations_11", 11, "Conv", attrs(ais("dilations", 2, 2), ais("pads", 2, 2, 2, 2)), f32(1, 3, 9, 9), f32(4, 3, 3, 3).c(), f32(4).c()),
	c1("Conv/dilations_strides_11", 11, "Conv", attrs(ais("dilations", 2, 1), ais("strides", 1, 2)), f32(2, 3, 9, 9), f32(5, 3, 3, 3).c()),
	c1("Conv/group2_11", 11, "Conv", attrs(ai("group", 2)), f32(1, 4, 7, 7), f32(6, 2, 3, 3).c(), f32(6).c()),
	c1("Conv/depthwise_11", 11, "Conv", attrs(ai("group", 4), ais("pads", 1, 1, 1, 1)), f32(1, 4, 7, 7), f32(4, 1, 3, 3).c(), f32(4).c()),
	c1("Conv/depthwise_mult2_11", 11, "Conv", attrs(ai("group", 4), ais("strides", 2, 2)), f32(1, 4, 9, 9), f32(8, 1, 3, 3).c(), f32(8).c()),
	c1("Conv/depthwise_5x5_s2_11", 11, "Conv", attrs(ai("group", 8), ais("pads", 2, 2, 2, 2), ais("strides", 2, 2)), f32(1, 8, 12, 10), f32(8, 1, 5, 5).c()),
	c1("Conv/same_upper_11", 11, "Conv", attrs(as("auto_pad", "SAME_UPPER"), ais("strides", 2, 2)), f32(1, 3, 7, 8), f32(2, 3, 3, 3).c(), f32(2).c()),
	c1("Conv/same_lower_11", 11, "Conv", attrs(as("auto_pad", "SAME_LOWER"), ais("strides", 2, 2)), f32(1, 3, 7, 8), f32(2, 3, 3, 3).c(), f32(2).c()),
	c1("Conv/same_upper_even_kernel_11", 11, "Conv", attrs(as("auto_pad", "SAME_UPPER")), f32(1, 2, 6, 6), f32(3, 2, 2, 2).c()),
	c1("Conv/same_lower_even_kernel_11", 11, "Conv", attrs(as("auto_pad", "SAME_LOWER")), f32(1, 2, 6, 6), f32(3, 2, 2, 2).c()),
	c1("Conv/valid_11", 11, "Conv", attrs(as("auto_pad", "VALID"), ais("strides", 2, 2)), f32(1, 3, 8, 9), f32(2, 3, 3, 3).c()),
	c1("Conv/notset_11", 11, "Conv", attrs(as("auto_pad", "NOTSET"), ais("pads", 1, 0, 1, 0)), f32(1, 3, 6, 6), f32(2, 3, 3, 3).c()),
	c1("Conv/1D_11", 11, "Conv", attrs(ais("pads", 1, 1), ais("strides", 2)), f32(1, 3, 10), f32(4, 3, 3).c(), f32(4).c()),
	c1("Conv/1D_depthwise_dil_11", 11, "Conv", attrs(ai("group", 4), ais("dilations", 2)), f32(2, 4, 12), f32(4, 1, 5).c()),
	c1("Conv/1D_same_upper_11", 11, "Conv", attrs(as("auto_pad", "SAME_UPPER")), f32(1, 2, 9), f32(3, 2, 4).c()),
	c1("Conv/1x1_7", 7, "Conv", nil, f32(2, 8, 5, 5), f32(16, 8, 1, 1).c(), f32(16).c()),
	c1("Conv/kernel_shape_attr_7", 7, "Conv", attrs(ais("kernel_shape", 3, 3), ais("pads", 1, 1, 1, 1)), f32(1, 3, 6, 6), f32(4, 3, 3, 3).c()),
	c1("Conv/rect_kernel_11", 11, "Conv", attrs(ais("strides", 2, 1)), f32(1, 3, 9, 6), f32(4, 3, 3, 1).c(), f32(4).c()),
	c1("Conv/fed_weights_11", 11, "Conv", attrs(ais("pads", 1, 1, 1, 1)), f32(1, 3, 6, 6), f32(4, 3, 3, 3), f32(4)),
	c1("Conv/free_batch_11", 11, "Conv", attrs(ais("pads", 1, 1, 1, 1)), f32(3, 3, 6, 6).d(-1, 3, 6, 6), f32(4, 3, 3, 3).c(), f32(4).c()),
	c1("Conv/larger_11", 11, "Conv", attrs(ais("pads", 1, 1, 1, 1)), f32(1, 16, 20, 20), f32(32, 16, 3, 3).c(), f32(32).c()),

	// ConvTranspose: strides, pads, output_padding, output_shape, group.
	c1("ConvTranspose/basic_11", 11, "ConvTranspose", nil, f32(1, 4, 5, 5), f32(4, 3, 3, 3).c()),
	c1("ConvTranspose/bias_7", 7, "ConvTranspose", nil, f32(1, 4, 5, 5), f32(4, 3, 3, 3).c(), f32(3).c()),
	c1("ConvTranspose/strides2_11", 11, "ConvTranspose", attrs(ais("strides", 2, 2)), f32(1, 4, 5, 5), f32(4, 3, 3, 3).c(), f32(3).c()),
	c1("ConvTranspose/pads_11", 11, "ConvTranspose", attrs(ais("strides", 2, 2), ais("pads", 1, 1, 1, 1)), f32(1, 4, 5, 5), f32(4, 3, 3, 3).c()),
	c1("ConvTranspose/asym_pads_11", 11, "ConvTranspose", attrs(ais("strides", 2, 2), ais("pads", 0, 1, 1, 0)), f32(1, 4, 5, 5), f32(4, 3, 3, 3).c()),
	c1("ConvTranspose/output_padding_11", 11, "ConvTranspose", attrs(ais("strides", 2, 2), ais("pads", 1, 1, 1, 1), ais("output_padding", 1, 1)), f32(1, 4, 5, 5), f32(4, 3, 3, 3).c(), f32(3).c()),
	c1("ConvTranspose/output_shape_11", 11, "ConvTranspose", attrs(ais("strides", 2, 2), ais("output_shape", 10, 10)), f32(1, 4, 5, 5), f32(4, 3, 3, 3).c()),
	c1("ConvTranspose/output_shape_beyond_full_11", 11, "ConvTranspose", attrs(ais("strides", 3, 2), ais("output_shape", 10, 8)), f32(1, 1, 3, 3), f32(1, 2, 3, 3).c()),
	c1("ConvTranspose/output_shape_odd_11", 11, "ConvTranspose", attrs(ais("strides", 2, 2), ais("output_shape", 9, 11)), f32(1, 2, 5, 5), f32(2, 3, 3, 3).c()),
	c1("ConvTranspose/group2_11", 11, "ConvTranspose", attrs(ai("group", 2), ais("strides", 2, 2)), f32(1, 4, 5, 5), f32(4, 2, 3, 3).c(), f32(4).c()),
	c1("ConvTranspose/depthwise_up2_11", 11, "ConvTranspose", attrs(ai("group", 4), ais("strides", 2, 2), ais("pads", 1, 1, 1, 1), ais("output_padding", 1, 1)), f32(1, 4, 4, 4), f32(4, 1, 4, 4).c()),
	c1("ConvTranspose/k2s2_11", 11, "ConvTranspose", attrs(ais("strides", 2, 2)), f32(1, 8, 6, 6), f32(8, 4, 2, 2).c(), f32(4).c()),
	c1("ConvTranspose/dilations_11", 11, "ConvTranspose", attrs(ais("dilations", 2, 2)), f32(1, 2, 4, 4), f32(2, 3, 3, 3).c()),
	c1("ConvTranspose/1D_11", 11, "ConvTranspose", attrs(ais("strides", 2)), f32(1, 3, 6), f32(3, 2, 4).c(), f32(2).c()),
	c1("ConvTranspose/same_upper_11", 11, "ConvTranspose", attrs(as("auto_pad", "SAME_UPPER"), ais("strides", 2, 2)), f32(1, 2, 4, 5), f32(2, 3, 3, 3).c()),
	c1("ConvTranspose/same_lower_11", 11, "ConvTranspose", attrs(as("auto_pad", "SAME_LOWER"), ais("strides", 2, 2)), f32(1, 2, 4, 5), f32(2, 3, 3, 3).c()),
	c1("ConvTranspose/valid_11", 11, "ConvTranspose", attrs(as("auto_pad", "VALID"), ais("strides", 2, 2)), f32(1, 2, 4, 5), f32(2, 3, 3, 3).c()),

	// MaxPool.
	c1("MaxPool/k2s2_8", 8, "MaxPool", attrs(ais("kernel_shape", 2, 2), ais("strides", 2, 2)), f32(1, 3, 8, 8)),
	c1("MaxPool/k3_default_strides_7", 7, "MaxPool", attrs(ais("kernel_shape", 3, 3)), f32(1, 2, 6, 7)),
	c1("MaxPool/k3s1p1_11", 11, "MaxPool", attrs(ais("kernel_shape", 3, 3), ais("pads", 1, 1, 1, 1)), f32(1, 3, 6, 6)),
	c1("MaxPool/asym_pads_12", 12, "MaxPool", attrs(ais("kernel_shape", 2, 2), ais("pads", 0, 1, 1, 0)), f32(1, 2, 5, 5)),
	c1("MaxPool/ceil_10", 10, "MaxPool", attrs(ais("kernel_shape", 2, 2), ais("strides", 2, 2), ai("ceil_mode", 1)), f32(1, 2, 7, 7)),
	c1("MaxPool/ceil_pads_12", 12, "MaxPool", attrs(ais("kernel_shape", 3, 3), ais("strides", 2, 2), ais("pads", 1, 1, 1, 1), ai("ceil_mode", 1)), f32(1, 2, 8, 8)),
	c1("MaxPool/dilations_10", 10, "MaxPool", attrs(ais("kernel_shape", 2, 2), ais("dilations", 2, 2)), f32(1, 2, 7, 7)),
	c1("MaxPool/dilations_strides_12", 12, "MaxPool", attrs(ais("kernel_shape", 3, 3), ais("dilations", 2, 1), ais("strides", 2, 2), ais("pads", 1, 1, 1, 1)), f32(1, 2, 9, 9)),
	c1("MaxPool/same_upper_11", 11, "MaxPool", attrs(ais("kernel_shape", 3, 3), ais("strides", 2, 2), as("auto_pad", "SAME_UPPER")), f32(1, 2, 7, 8)),
	c1("MaxPool/same_lower_11", 11, "MaxPool", attrs(ais("kernel_shape", 2, 2), as("auto_pad", "SAME_LOWER")), f32(1, 2, 5, 6)),
	c1("MaxPool/valid_11", 11, "MaxPool", attrs(ais("kernel_shape", 3, 3), ais("strides", 2, 2), as("auto_pad", "VALID")), f32(1, 2, 8, 9)),
	c1("MaxPool/1D_12", 12, "MaxPool", attrs(ais("kernel_shape", 3), ais("strides", 2)), f32(2, 3, 10)),
	c1("MaxPool/rect_12", 12, "MaxPool", attrs(ais("kernel_shape", 3, 1), ais("strides", 2, 1)), f32(1, 2, 9, 4)),
	c1("MaxPool/negative_inputs_12", 12, "MaxPool", attrs(ais("kernel_shape", 2, 2), ais("pads", 1, 1, 1, 1)), rng(-5, -1, 1, 2, 4, 4)),

	// AveragePool.
	c1("AveragePool/k2s2_7", 7, "AveragePool", attrs(ais("kernel_shape", 2, 2), ais("strides", 2, 2)), f32(1, 3, 8, 8)),
	c1("AveragePool/pads_exclude_11", 11, "AveragePool", attrs(ais("kernel_shape", 3, 3), ais("pads", 1, 1, 1, 1)), f32(1, 2, 6, 6)),
	c1("AveragePool/pads_include_11", 11, "AveragePool", attrs(ais("kernel_shape", 3, 3), ais("pads", 1, 1, 1, 1), ai("count_include_pad", 1)), f32(1, 2, 6, 6)),
	c1("AveragePool/asym_pads_include_7", 7, "AveragePool", attrs(ais("kernel_shape", 2, 2), ais("pads", 0, 1, 1, 0), ai("count_include_pad", 1)), f32(1, 2, 5, 5)),
	c1("AveragePool/ceil_10", 10, "AveragePool", attrs(ais("kernel_shape", 2, 2), ais("strides", 2, 2), ai("ceil_mode", 1)), f32(1, 2, 7, 7)),
	c1("AveragePool/ceil_pads_include_19", 19, "AveragePool", attrs(ais("kernel_shape", 3, 3), ais("strides", 2, 2), ais("pads", 1, 1, 1, 1), ai("ceil_mode", 1), ai("count_include_pad", 1)), f32(1, 2, 8, 8)),
	c1("AveragePool/ceil_pads_exclude_11", 11, "AveragePool", attrs(ais("kernel_shape", 3, 3), ais("strides", 2, 2), ais("pads", 1, 1, 1, 1), ai("ceil_mode", 1)), f32(1, 2, 8, 8)),
	c1("AveragePool/same_upper_11", 11, "AveragePool", attrs(ais("kernel_shape", 3, 3), ais("strides", 2, 2), as("auto_pad", "SAME_UPPER")), f32(1, 2, 7, 8)),
	c1("AveragePool/same_upper_include_11", 11, "AveragePool", attrs(ais("kernel_shape", 3, 3), ais("strides", 2, 2), as("auto_pad", "SAME_UPPER"), ai("count_include_pad", 1)), f32(1, 2, 7, 8)),
	c1("AveragePool/same_lower_11", 11, "AveragePool", attrs(ais("kernel_shape", 2, 2), as("auto_pad", "SAME_LOWER")), f32(1, 2, 5, 6)),
	c1("AveragePool/valid_11", 11, "AveragePool", attrs(ais("kernel_shape", 3, 3), ais("strides", 2, 2), as("auto_pad", "VALID")), f32(1, 2, 8, 9)),
	c1("AveragePool/dilations_19", 19, "AveragePool", attrs(ais("kernel_shape", 2, 2), ais("dilations", 2, 2)), f32(1, 2, 7, 7)),
	c1("AveragePool/1D_11", 11, "AveragePool", attrs(ais("kernel_shape", 3), ais("strides", 2), ais("pads", 1, 1)), f32(2, 3, 10)),

	// Global pools.
	c1("GlobalAveragePool/2D_7", 7, "GlobalAveragePool", nil, f32(2, 3, 5, 6)),
	c1("GlobalAveragePool/1D_13", 13, "GlobalAveragePool", nil, f32(2, 3, 7)),
	c1("GlobalAveragePool/large_13", 13, "GlobalAveragePool", nil, rng(5, 6, 1, 4, 32, 32)),
	c1("GlobalMaxPool/2D_7", 7, "GlobalMaxPool", nil, f32(2, 3, 5, 6)),
	c1("GlobalMaxPool/1D_13", 13, "GlobalMaxPool", nil, f32(2, 3, 7)),

	// BatchNormalization (inference form).
	c1("BatchNormalization/4D_9", 9, "BatchNormalization", nil, f32(2, 3, 4, 5), f32(3).c(), f32(3).c(), f32(3).c(), pos(3).c()),
	c1("BatchNormalization/epsilon_7", 7, "BatchNormalization", attrs(af("epsilon", 1e-2)), f32(2, 3, 4, 5), f32(3).c(), f32(3).c(), f32(3).c(), pos(3).c()),
	c1("BatchNormalization/3D_14", 14, "BatchNormalization", nil, f32(2, 3, 6), f32(3).c(), f32(3).c(), f32(3).c(), pos(3).c()),
	c1("BatchNormalization/2D_15", 15, "BatchNormalization", nil, f32(4, 3), f32(3).c(), f32(3).c(), f32(3).c(), pos(3).c()),
	c1("BatchNormalization/fed_params_15", 15, "BatchNormalization", attrs(af("epsilon", 1e-3)), f32(2, 3, 4, 4), f32(3), f32(3), f32(3), pos(3)),
	c1("BatchNormalization/free_batch_15", 15, "BatchNormalization", nil, f32(3, 2, 5, 5).d(-1, 2, 5, 5), f32(2).c(), f32(2).c(), f32(2).c(), pos(2).c()),
}

// resizeCases cover Resize and Upsample: nearest with each nearest_mode,
// linear, each coordinate_transformation_mode exporters emit, scales and
// sizes forms, and the opset 7-10 forms.
var resizeCases = func() []tc {
	var out []tc
	coords := []string{"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric"}
	for _, nm := range []string{"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"} {
		for _, cm := range coords {
			at := attrs(as("mode", "nearest"), as("nearest_mode", nm), as("coordinate_transformation_mode", cm))
			// align_corners at scales whose products with the input dims
			// are not whole numbers (8 at 0.7) follows ONNX's reference,
			// not ONNX Runtime (resize.OrigFromScales).
			sw := float32(0.7)
			if cm == "align_corners" {
				sw = 0.75
			}
			out = append(out,
				c1("Resize/nearest_"+nm+"_"+cm+"_sizes_13", 13, "Resize", at, f32(1, 2, 4, 5), none, none, i64(1, 2, 7, 9)),
				c1("Resize/nearest_"+nm+"_"+cm+"_scales_down_13", 13, "Resize", at, f32(1, 2, 6, 8), none, fc([]int{4}, 1, 1, 0.5, sw)),
			)
		}
	}
	for _, cm := range coords {
		at := attrs(as("mode", "linear"), as("coordinate_transformation_mode", cm))
		out = append(out,
			c1("Resize/linear_"+cm+"_scales_up_13", 13, "Resize", at, f32(1, 2, 4, 5), none, fc([]int{4}, 1, 1, 2, 2)),
			c1("Resize/linear_"+cm+"_scales_down_13", 13, "Resize", at, f32(1, 2, 8, 6), none, fc([]int{4}, 1, 1, 0.5, 0.5)),
			c1("Resize/linear_"+cm+"_sizes_odd_13", 13, "Resize", at, f32(2, 3, 4, 5), none, none, i64(2, 3, 7, 9)),
			c1("Resize/linear_"+cm+"_sizes_down_18", 18, "Resize", at, f32(1, 2, 7, 9), none, none, i64(1, 2, 3, 4)),
		)
	}
	out = append(out,
		c1("Resize/nearest_default_scales_13", 13, "Resize", nil, f32(1, 2, 4, 5), none, fc([]int{4}, 1, 1, 2, 2)),
		c1("Resize/nearest_scales_frac_13", 13, "Resize", attrs(as("mode", "nearest")), f32(1, 2, 4, 5), none, fc([]int{4}, 1, 1, 1.5, 2.5)),
		c1("Resize/linear_pytorch_to_1_13", 13, "Resize", attrs(as("mode", "linear"), as("coordinate_transformation_mode", "pytorch_half_pixel")), f32(1, 2, 4, 5), none, none, i64(1, 2, 1, 3)),
		c1("Resize/nearest_sizes_11", 11, "Resize", attrs(as("mode", "nearest"), as("coordinate_transformation_mode", "asymmetric"), as("nearest_mode", "floor")), f32(1, 2, 4, 5), fc([]int{0}), fc([]int{0}), i64(1, 2, 8, 10)),
		c1("Resize/linear_scales_11", 11, "Resize", attrs(as("mode", "linear"), as("coordinate_transformation_mode", "align_corners")), f32(1, 2, 4, 5), fc([]int{0}), fc([]int{4}, 1, 1, 2, 2)),
		c1("Resize/linear_half_pixel_11", 11, "Resize", attrs(as("mode", "linear")), f32(1, 2, 4, 5), fc([]int{0}), fc([]int{4}, 1, 1, 3, 3)),
		c1("Resize/nearest_axes_18", 18, "Resize", attrs(as("mode", "nearest"), ais("axes", 2, 3)), f32(1, 2, 4, 5), none, fc([]int{2}, 2, 2)),
		c1("Resize/linear_fed_sizes_13", 13, "Resize", attrs(as("mode", "linear")), f32(1, 2, 4, 5), none, none, i64(1, 2, 6, 6).fed()),
		// As above, the align_corners rows keep scale products whole
		// (ONNX's node tests check 4 at 0.6 against the reference).
		c1("Resize/linear_align_corners_to_1_13", 13, "Resize", attrs(as("mode", "linear"), as("coordinate_transformation_mode", "align_corners")), f32(1, 1, 2, 4), none, fc([]int{4}, 1, 1, 0.6, 0.5)),
		c1("Resize/cubic_align_corners_to_1_13", 13, "Resize", attrs(as("mode", "cubic"), as("coordinate_transformation_mode", "align_corners")), f32(1, 1, 2, 4), none, fc([]int{4}, 1, 1, 0.6, 0.5)),
		c1("Resize/nearest_3D_13", 13, "Resize", attrs(as("mode", "nearest")), f32(1, 2, 5), none, fc([]int{3}, 1, 1, 2)),
		c1("Resize/nearest_10", 10, "Resize", attrs(as("mode", "nearest")), f32(1, 2, 4, 5), fc([]int{4}, 1, 1, 2, 2)),
		c1("Resize/nearest_frac_10", 10, "Resize", attrs(as("mode", "nearest")), f32(1, 2, 4, 5), fc([]int{4}, 1, 1, 1.5, 0.6)),
		c1("Resize/linear_10", 10, "Resize", attrs(as("mode", "linear")), f32(1, 2, 4, 5), fc([]int{4}, 1, 1, 2, 2)),
		c1("Upsample/nearest_attr_7", 7, "Upsample", attrs(as("mode", "nearest"), afs("scales", 1, 1, 2, 2)), f32(1, 2, 4, 5)),
		c1("Upsample/linear_attr_7", 7, "Upsample", attrs(as("mode", "linear"), afs("scales", 1, 1, 2, 3)), f32(1, 2, 4, 5)),
		c1("Upsample/nearest_input_9", 9, "Upsample", attrs(as("mode", "nearest")), f32(1, 2, 4, 5), fc([]int{4}, 1, 1, 2, 2)),
		c1("Upsample/linear_input_9", 9, "Upsample", attrs(as("mode", "linear")), f32(1, 2, 4, 5), fc([]int{4}, 1, 1, 2, 2)),
	)
	return out
}()

func TestConv(t *testing.T)   { runCases(t, convCases) }
func TestResize(t *testing.T) { runCases(t, resizeCases) }
