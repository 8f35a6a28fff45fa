package cpu

import (
	"unicode"
	"unicode/utf8"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// stringNormalizerKernel is StringNormalizer: the input's strings less
// the stop words, case-changed, with en_US semantics (Unicode simple
// case mapping). Its shape method counts what remains.
type stringNormalizerKernel struct {
	a    *model.StringNormalizerAttrs
	stop map[string]bool
	keep int
	buf  []byte
	out  strOut
}

// stopped reports whether s is a stop word.
func (k *stringNormalizerKernel) stopped(s []byte) bool {
	if len(k.stop) == 0 {
		return false
	}
	if !k.a.CaseSensitive {
		k.buf = appendCase(k.buf[:0], s, unicode.ToLower)
		s = k.buf
	}
	return k.stop[string(s)]
}

func (k *stringNormalizerKernel) shape(in, out []*tensor) error {
	x := in[0]
	n := x.numel()
	k.keep = 0
	for i := range n {
		if !k.stopped(strAt(x, i)) {
			k.keep++
		}
	}
	y := out[0].shape
	y[len(y)-1] = k.keep
	if k.keep == 0 && n > 0 {
		y[len(y)-1] = 1 // one empty string, as ONNX Runtime gives
	}
	return nil
}

func (k *stringNormalizerKernel) run(in, out []*tensor) error {
	x := in[0]
	k.out.start(out[0].numel())
	if k.keep == 0 && x.numel() > 0 {
		k.out.add(nil)
	}
	for i := range x.numel() {
		s := strAt(x, i)
		if k.stopped(s) {
			continue
		}
		switch k.a.CaseChange {
		case model.CaseLower:
			k.buf = appendCase(k.buf[:0], s, unicode.ToLower)
			s = k.buf
		case model.CaseUpper:
			k.buf = appendCase(k.buf[:0], s, unicode.ToUpper)
			s = k.buf
		}
		k.out.add(s)
	}
	k.out.set(out[0])
	return nil
}

// appendCase appends s with f applied to each rune; bytes that are not
// UTF-8 are kept as they are.
func appendCase(dst, s []byte, f func(rune) rune) []byte {
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		if r == utf8.RuneError && size <= 1 {
			dst = append(dst, s[0])
			s = s[1:]
			continue
		}
		dst = utf8.AppendRune(dst, f(r))
		s = s[size:]
	}
	return dst
}

// normalizerLocales are the locales StringNormalizer runs: en_US's case
// mapping is Unicode's simple one.
var normalizerLocales = map[string]bool{"": true, "en_US": true, "en_US.UTF-8": true, "en_US.utf8": true}

func init() {
	register("StringNormalizer", func(c *buildCtx) (kernel, error) {
		if c.inType(0) != payload.String {
			return nil, c.unsupported("element type %s (want string)", c.inType(0))
		}
		a := c.rule.(*model.StringNormalizerAttrs)
		if !normalizerLocales[a.Locale] {
			return nil, c.unsupported("locale %q (only en_US)", a.Locale)
		}
		k := &stringNormalizerKernel{a: a, stop: map[string]bool{}}
		for _, w := range a.Stopwords {
			if !a.CaseSensitive {
				w = string(appendCase(nil, []byte(w), unicode.ToLower))
			}
			k.stop[w] = true
		}
		return k, nil
	})
}
