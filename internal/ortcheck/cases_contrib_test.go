//go:build ort

package ortcheck

import (
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
