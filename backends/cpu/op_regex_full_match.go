package cpu

import (
	"regexp"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// regexFullMatchKernel is RegexFullMatch: whether each string matches the
// node's pattern in full. Go's regexp is RE2, as ONNX Runtime's is.
type regexFullMatchKernel struct {
	re *regexp.Regexp
}

func (k *regexFullMatchKernel) run(in, out []*tensor) error {
	x, d := in[0], out[0].bools()
	for i := range d {
		d[i] = k.re.Match(strAt(x, i))
	}
	return nil
}

func init() {
	register("RegexFullMatch", func(c *buildCtx) (kernel, error) {
		if c.inType(0) != payload.String {
			return nil, c.unsupported("element type %s (want string)", c.inType(0))
		}
		return &regexFullMatchKernel{re: c.rule.(*model.RegexFullMatchAttrs).Re}, nil
	})
}
