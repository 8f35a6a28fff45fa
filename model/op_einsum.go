package model

import "strings"

func init() {
	RegisterOp(&Op{
		Type: "Einsum",
		Versions: []Version{
			{Since: 12, MinIn: 1, MaxIn: Many, MaxOut: 1},
		},
		InputNames: []string{"Inputs"},
		Bind:       bindEinsum,
	})
}

// EinsumLetters is the number of letter labels: 'A'…'Z' are 0…25 and
// 'a'…'z' are 26…51, in ASCII order. Ellipsis dims are labels from
// EinsumLetters on.
const EinsumLetters = 52

// EinsumEllipsis marks an ellipsis in a term.
const EinsumEllipsis = -1

// EinsumAttrs are an Einsum node's parsed equation. Each term lists its
// labels, one per dim, with EinsumEllipsis standing for the dims an
// ellipsis covers; a label repeated in one term takes that term's
// diagonal. The output has the output term's labels; every other label
// is summed over. Ellipsis dims of the inputs broadcast, aligned to the
// right.
type EinsumAttrs struct {
	// Equation is the equation attribute.
	Equation string
	// In holds each input's term.
	In [][]int
	// Out is the output term: the one after "->", or, without one, the
	// ellipsis (when an input has one) then the letters used once, in
	// ASCII order.
	Out []int
}

func bindEinsum(n *Node, opset int64) (Rule, error) {
	eq, err := n.String("equation", "")
	if err != nil {
		return nil, err
	}
	if !n.Has("equation") {
		return nil, attrMissing(n, "equation")
	}
	a := &EinsumAttrs{Equation: eq}
	s := strings.ReplaceAll(eq, " ", "")
	lhs, rhs, explicit := strings.Cut(s, "->")
	terms := strings.Split(lhs, ",")
	if len(terms) != len(n.Inputs) {
		return nil, attrErr(n, "equation %q has %d input terms for %d inputs", eq, len(terms), len(n.Inputs))
	}
	var count [EinsumLetters]int
	ell := false
	for _, t := range terms {
		labels, err := einsumTerm(n, eq, t)
		if err != nil {
			return nil, err
		}
		for _, l := range labels {
			if l == EinsumEllipsis {
				ell = true
			} else {
				count[l]++
			}
		}
		a.In = append(a.In, labels)
	}
	if !explicit {
		if ell {
			a.Out = append(a.Out, EinsumEllipsis)
		}
		for l, k := range count {
			if k == 1 {
				a.Out = append(a.Out, l)
			}
		}
		return a, nil
	}
	if a.Out, err = einsumTerm(n, eq, rhs); err != nil {
		return nil, err
	}
	var seen [EinsumLetters]bool
	for _, l := range a.Out {
		switch {
		case l == EinsumEllipsis:
			if !ell {
				return nil, attrErr(n, "equation %q: the output has an ellipsis no input has", eq)
			}
		case count[l] == 0:
			return nil, attrErr(n, "equation %q: output label %c is in no input", eq, einsumLetter(l))
		case seen[l]:
			return nil, attrErr(n, "equation %q: output label %c is repeated", eq, einsumLetter(l))
		default:
			seen[l] = true
		}
	}
	return a, nil
}

// einsumTerm parses one term of eq.
func einsumTerm(n *Node, eq, t string) ([]int, error) {
	labels := []int{}
	ell := false
	for i := 0; i < len(t); i++ {
		ch := t[i]
		switch {
		case ch >= 'A' && ch <= 'Z':
			labels = append(labels, int(ch-'A'))
		case ch >= 'a' && ch <= 'z':
			labels = append(labels, 26+int(ch-'a'))
		case ch == '.' && strings.HasPrefix(t[i:], "...") && !ell:
			ell = true
			labels = append(labels, EinsumEllipsis)
			i += 2
		default:
			return nil, attrErr(n, "equation %q: term %q is not letters with at most one ellipsis", eq, t)
		}
	}
	return labels, nil
}

// einsumLetter returns label l's letter.
func einsumLetter(l int) byte {
	if l < 26 {
		return byte('A' + l)
	}
	return byte('a' + l - 26)
}

// EinsumEllipsisRank returns the number of dims an ellipsis covers in a
// term of rank r, or -1 when the term does not fit the rank.
func EinsumEllipsisRank(term []int, r int) int {
	ell := false
	for _, l := range term {
		if l == EinsumEllipsis {
			ell = true
		}
	}
	if !ell {
		if r != len(term) {
			return -1
		}
		return 0
	}
	if e := r - (len(term) - 1); e >= 0 {
		return e
	}
	return -1
}

// Infer implements Rule.
func (a *EinsumAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	// The ellipsis rank: the largest of the inputs'.
	ellRank, unknown := 0, false
	for i, t := range a.In {
		if c.DType(i) != c.DType(0) {
			return c.Errorf("input %d has element type %s, input 0 %s", i, c.DType(i), c.DType(0))
		}
		r := c.Rank(i)
		if r < 0 {
			unknown = true
			continue
		}
		e := EinsumEllipsisRank(t, r)
		if e < 0 {
			return c.Errorf("input %d has rank %d, which term %d of %q does not fit", i, r, i, a.Equation)
		}
		ellRank = max(ellRank, e)
	}
	outEll := false
	for _, l := range a.Out {
		outEll = outEll || l == EinsumEllipsis
	}
	if unknown && outEll {
		c.SetUnranked(0)
		return nil
	}
	// size[l] is label l's size: -2 unseen, -1 unknown.
	size := c.Scratch(EinsumLetters + ellRank)
	for i := range size {
		size[i] = -2
	}
	for i, t := range a.In {
		x, ok := c.Dims(i)
		if !ok {
			continue
		}
		e := EinsumEllipsisRank(t, len(x))
		d := 0
		for _, l := range t {
			if l == EinsumEllipsis {
				for k := range e {
					// Aligned to the right: this input's first ellipsis
					// dim is label ellRank-e.
					p := &size[EinsumLetters+ellRank-e+k]
					v, ok := bcastDim(max(*p, -1), x[d+k])
					if *p == -2 {
						v, ok = x[d+k], true
					}
					if !ok {
						return c.Errorf("input %d: ellipsis dims %v do not broadcast with the other inputs'", i, x[d:d+e])
					}
					*p = v
				}
				d += e
				continue
			}
			p := &size[l]
			switch {
			case *p == -2 || *p == -1:
				*p = x[d]
			case x[d] >= 0 && x[d] != *p:
				return c.Errorf("label %c has sizes %d and %d in %q", einsumLetter(l), *p, x[d], a.Equation)
			}
			d++
		}
	}
	r := len(a.Out)
	if outEll {
		r += ellRank - 1
	}
	out := c.OutDims(0, r)
	j := 0
	for _, l := range a.Out {
		if l == EinsumEllipsis {
			for k := range ellRank {
				out[j] = max(size[EinsumLetters+k], -1)
				j++
			}
			continue
		}
		out[j] = max(size[l], -1)
		j++
	}
	return nil
}
