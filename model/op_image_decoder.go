package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "ImageDecoder",
		Versions:   []Version{{Since: 20, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"encoded_stream"},
		Bind:       bindImageDecoder,
		// Decoding is costly and its result large: never fold it.
		NoFold: true,
	})
}

// The pixel formats of ImageDecoder.
const (
	PixelRGB = iota
	PixelBGR
	PixelGray
)

// ImageDecoderAttrs are an ImageDecoder node's attributes. The input is
// an encoded image, uint8 [bytes]; the output is uint8 [H, W, C], C being
// 3 for RGB and BGR and 1 for Grayscale. H and W depend on the input's
// contents: the rule leaves them unknown (-1) and backends fill them in.
type ImageDecoderAttrs struct {
	// Format is PixelRGB (the default), PixelBGR or PixelGray.
	Format int
}

func bindImageDecoder(n *Node, opset int64) (Rule, error) {
	f, err := n.String("pixel_format", "RGB")
	if err != nil {
		return nil, err
	}
	a := &ImageDecoderAttrs{}
	switch f {
	case "RGB":
	case "BGR":
		a.Format = PixelBGR
	case "Grayscale":
		a.Format = PixelGray
	default:
		return nil, invalidAttr(n, "pixel_format must be RGB, BGR or Grayscale, got %q", f)
	}
	return a, nil
}

// Channels returns the output's number of channels.
func (a *ImageDecoderAttrs) Channels() int {
	if a.Format == PixelGray {
		return 1
	}
	return 3
}

// Infer implements Rule.
func (a *ImageDecoderAttrs) Infer(c *InferCtx) error {
	if dt := c.DType(0); dt != payload.Uint8 && dt != payload.Undefined {
		return c.Errorf("input has element type %s, want uint8", dt)
	}
	if r := c.Rank(0); r >= 0 && r != 1 {
		return c.Errorf("input has rank %d, want 1", r)
	}
	c.SetType(0, payload.Uint8)
	out := c.OutDims(0, 3)
	out[0], out[1], out[2] = -1, -1, a.Channels()
	return nil
}
