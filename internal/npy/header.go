package npy

import (
	"strconv"

	"github.com/lintel-ml/lintel/internal/errs"
)

// header is the parsed dictionary of a .npy header.
type header struct {
	descr   string
	fortran bool
	shape   []int
}

// maxRank bounds the number of dimensions a header may declare.
const maxRank = 64

// parseHeader parses the Python dictionary literal NumPy writes, such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }, followed
// by spaces and a newline. It requires exactly the keys descr,
// fortran_order and shape, as NumPy does.
func parseHeader(s string) (header, error) {
	p := &hparser{s: s}
	var h header
	seen := map[string]bool{}
	p.space()
	if !p.eat('{') {
		return h, p.fail("want '{'")
	}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return h, err
		}
		if seen[key] {
			return h, p.fail("key %q given twice", key)
		}
		seen[key] = true
		p.space()
		if !p.eat(':') {
			return h, p.fail("want ':' after %q", key)
		}
		p.space()
		switch key {
		case "descr":
			if p.peek() == '[' {
				return h, errs.New(errs.Unsupported, "npy: structured dtypes are not supported")
			}
			if h.descr, err = p.str(); err != nil {
				return h, err
			}
		case "fortran_order":
			switch {
			case p.word("True"):
				h.fortran = true
			case p.word("False"):
				h.fortran = false
			default:
				return h, p.fail("fortran_order must be True or False")
			}
		case "shape":
			if h.shape, err = p.tuple(); err != nil {
				return h, err
			}
		default:
			return h, p.fail("unexpected key %q", key)
		}
		p.space()
		if p.eat(',') {
			continue
		}
		p.space()
		if !p.eat('}') {
			return h, p.fail("want ',' or '}'")
		}
		break
	}
	p.space()
	if p.i != len(p.s) {
		return h, p.fail("unexpected text after the dictionary")
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return h, errs.New(errs.InvalidArtifact, "npy: header lacks the key %q", k)
		}
	}
	return h, nil
}

// hparser walks a header string.
type hparser struct {
	s string
	i int
}

func (p *hparser) fail(format string, args ...any) error {
	return errs.New(errs.InvalidArtifact, "npy: header at byte %d: "+format, append([]any{p.i}, args...)...)
}

func (p *hparser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *hparser) eat(c byte) bool {
	if p.peek() == c && p.i < len(p.s) {
		p.i++
		return true
	}
	return false
}

func (p *hparser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// word consumes w if the text continues with it.
func (p *hparser) word(w string) bool {
	if len(p.s)-p.i >= len(w) && p.s[p.i:p.i+len(w)] == w {
		p.i += len(w)
		return true
	}
	return false
}

// str reads a quoted string without escapes, as NumPy writes keys and
// simple dtype descriptions.
func (p *hparser) str() (string, error) {
	q := p.peek()
	if q != '\'' && q != '"' {
		return "", p.fail("want a quoted string")
	}
	p.i++
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == q {
			p.i++
			return p.s[start : p.i-1], nil
		}
		if c == '\\' {
			return "", p.fail("escapes in strings are not supported")
		}
		p.i++
	}
	return "", p.fail("unterminated string")
}

// tuple reads a tuple of non-negative integers: (), (3,), (2, 3) and
// Python 2's (2L, 3L).
func (p *hparser) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, p.fail("shape must be a tuple")
	}
	shape := []int{}
	for {
		p.space()
		if p.eat(')') {
			break
		}
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if p.i == start {
			return nil, p.fail("shape holds something other than a non-negative integer")
		}
		d, err := strconv.ParseInt(p.s[start:p.i], 10, 0)
		if err != nil {
			return nil, p.fail("dimension %s is too large", p.s[start:p.i])
		}
		p.eat('L')
		if len(shape) == maxRank {
			return nil, p.fail("more than %d dimensions", maxRank)
		}
		shape = append(shape, int(d))
		p.space()
		if p.eat(',') {
			continue
		}
		p.space()
		if !p.eat(')') {
			return nil, p.fail("want ',' or ')' in shape")
		}
		if len(shape) == 1 {
			// (3) is the integer 3 in Python, not a tuple.
			return nil, p.fail("a one-dimensional shape needs a trailing comma")
		}
		break
	}
	return shape, nil
}
