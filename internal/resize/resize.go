// Package resize holds the coordinate rules of ONNX Resize that every
// backend shares: how an output coordinate maps to an input coordinate,
// and how a nearest-mode coordinate rounds to an index.
//
// Rules:
//   - The arithmetic is float32, step for step as ONNX Runtime does it, so
//     that backends that build their tap tables from these functions pick
//     the same input elements and weights.
//   - Nothing here allocates or panics.
package resize

import "math"

// Coord is a coordinate_transformation_mode.
type Coord uint8

// The coordinate transformation modes.
const (
	HalfPixel Coord = iota
	HalfPixelSymmetric
	PytorchHalfPixel
	AlignCorners
	Asymmetric
	TFHalfPixelForNN
	TFCropAndResize
)

var coordNames = map[string]Coord{
	"half_pixel": HalfPixel, "half_pixel_symmetric": HalfPixelSymmetric,
	"pytorch_half_pixel": PytorchHalfPixel, "align_corners": AlignCorners, "asymmetric": Asymmetric,
	"tf_half_pixel_for_nn": TFHalfPixelForNN, "tf_crop_and_resize": TFCropAndResize,
}

// ParseCoord returns the mode an attribute value names, or false.
func ParseCoord(s string) (Coord, bool) {
	c, ok := coordNames[s]
	return c, ok
}

// Nearest is a nearest_mode, or Simple: the rule of Upsample and
// Resize-10 (truncate when upsampling, ceil when downsampling).
type Nearest uint8

// The nearest rounding modes.
const (
	RoundPreferFloor Nearest = iota
	RoundPreferCeil
	Floor
	Ceil
	Simple
)

var nearestNames = map[string]Nearest{
	"round_prefer_floor": RoundPreferFloor, "round_prefer_ceil": RoundPreferCeil, "floor": Floor, "ceil": Ceil,
}

// ParseNearest returns the mode an attribute value names, or false.
// Simple has no attribute value: it is implied by the old ops.
func ParseNearest(s string) (Nearest, bool) {
	m, ok := nearestNames[s]
	return m, ok
}

// Orig maps output coordinate x along one dim, of outLen outputs from
// inLen inputs at scale s, to the input coordinate. roiStart and roiEnd
// are the dim's region of interest, read by TFCropAndResize only.
func Orig(c Coord, s, x float32, outLen, inLen int, roiStart, roiEnd float32) float32 {
	lo, li := float32(outLen), float32(inLen)
	switch c {
	case Asymmetric:
		return x / s
	case PytorchHalfPixel:
		if lo > 1 {
			return (x+0.5)/s - 0.5
		}
		return 0
	case TFHalfPixelForNN:
		return (x + 0.5) / s
	case AlignCorners:
		if lo == 1 {
			return 0
		}
		return x * (li - 1) / (lo - 1)
	case TFCropAndResize:
		rs, re := roiStart, roiEnd
		if lo > 1 {
			return rs*(li-1) + (x*(re-rs)*(li-1))/(lo-1)
		}
		return float32(0.5 * float64(rs+re) * float64(li-1))
	case HalfPixelSymmetric:
		adj := lo / (s * li)
		center := li / 2
		off := center * (1 - adj)
		return off + ((x+0.5)/s - 0.5)
	}
	return (x+0.5)/s - 0.5
}

// OrigFromScales is Orig for a Resize given scales rather than sizes. It
// differs from Orig for AlignCorners only: ONNX's reference implementation
// (and so its backend tests) divides by inLen*s - 1, the resized length
// before it is floored to the output length, where ONNX Runtime divides by
// outLen - 1. The two differ when inLen*s is not a whole number, such as
// 4 inputs at scale 0.6; lintel follows the reference.
func OrigFromScales(c Coord, s, x float32, outLen, inLen int, roiStart, roiEnd float32) float32 {
	if c != AlignCorners {
		return Orig(c, s, x, outLen, inLen, roiStart, roiEnd)
	}
	lr := s * float32(inLen)
	if outLen == 1 || lr == 1 {
		return 0
	}
	return x * float32(inLen-1) / (lr - 1)
}

// NearestIndex rounds input coordinate x per mode m (scale is the dim's
// scale, which Simple reads). Below -1 or NaN gives -1; above limit gives
// limit.
func NearestIndex(m Nearest, x, scale float32, limit int) int {
	var v float64
	f := float64(x)
	switch m {
	case Simple:
		if scale < 1 {
			v = math.Ceil(f)
		} else {
			v = math.Trunc(f)
		}
	case RoundPreferCeil:
		v = math.Round(f)
	case Floor:
		v = math.Floor(f)
	case Ceil:
		v = math.Ceil(f)
	default:
		if x == float32(math.Trunc(f))+0.5 {
			v = math.Floor(f)
		} else {
			v = math.Round(f)
		}
	}
	if v < -1 || math.IsNaN(v) {
		return -1
	}
	if v > float64(limit) {
		return limit
	}
	return int(v)
}
