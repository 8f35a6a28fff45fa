package cpu

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// stringSplitKernel is StringSplit: each string split at the delimiter
// (or at runs of whitespace) as Python's str.split does, which is what
// ONNX's reference follows. Its shape method finds the largest count,
// the output's last dim.
type stringSplitKernel struct {
	sep []byte
	max int // most splits, -1 for no bound
	// most is the largest count shape found.
	most int
	out  strOut
}

func (k *stringSplitKernel) shape(in, out []*tensor) error {
	x := in[0]
	k.most = 0
	for i := range x.numel() {
		k.most = max(k.most, k.split(strAt(x, i), nil))
	}
	y := out[0].shape
	y[len(y)-1] = k.most
	return nil
}

func (k *stringSplitKernel) run(in, out []*tensor) error {
	x, z := in[0], out[1].i64()
	n := x.numel()
	k.out.start(n * k.most)
	for i := range n {
		c := k.split(strAt(x, i), &k.out)
		for range k.most - c {
			k.out.add(nil)
		}
		z[i] = int64(c)
	}
	k.out.set(out[0])
	return nil
}

// split splits s, adding the pieces to w when it is not nil, and
// returns how many there are.
func (k *stringSplitKernel) split(s []byte, w *strOut) int {
	emit := func(p []byte) {
		if w != nil {
			w.add(p)
		}
	}
	count := 0
	if len(k.sep) > 0 {
		for k.max < 0 || count < k.max {
			j := bytes.Index(s, k.sep)
			if j < 0 {
				break
			}
			emit(s[:j])
			count++
			s = s[j+len(k.sep):]
		}
		emit(s)
		return count + 1
	}
	// Whitespace: Python's split_whitespace.
	i := 0
	for k.max < 0 || count < k.max {
		i = skipSpace(s, i)
		if i == len(s) {
			return count
		}
		j := i
		for i < len(s) {
			r, size := utf8.DecodeRune(s[i:])
			if isPySpace(r) {
				break
			}
			i += size
		}
		emit(s[j:i])
		count++
	}
	if i = skipSpace(s, i); i < len(s) {
		emit(s[i:])
		count++
	}
	return count
}

// skipSpace returns the index of the first non-space rune of s from i.
func skipSpace(s []byte, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRune(s[i:])
		if !isPySpace(r) {
			break
		}
		i += size
	}
	return i
}

// isPySpace reports whether Python's str.isspace holds for r.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

func init() {
	register("StringSplit", func(c *buildCtx) (kernel, error) {
		if c.inType(0) != payload.String {
			return nil, c.unsupported("element type %s (want string)", c.inType(0))
		}
		a := c.rule.(*model.StringSplitAttrs)
		k := &stringSplitKernel{sep: []byte(a.Delimiter), max: -1}
		if a.MaxSplit >= 0 {
			k.max = int(min(a.MaxSplit, int64(maxDim)))
		}
		return k, nil
	})
}
