package cpu

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// dmCase is one run of a data-movement kernel: its outputs' shapes and
// values (each printed with fmt.Sprint), or the error it must wrap.
type dmCase struct {
	name   string
	c      nodeCase
	ins    []*tensor
	shapes [][]int
	vals   []string
	err    error
}

// dmValues prints t's elements.
func dmValues(t *tensor) string {
	switch t.dt {
	case payload.Float32:
		return fmt.Sprint(t.f32())
	case payload.Float64:
		return fmt.Sprint(t.f64())
	case payload.Int32:
		return fmt.Sprint(t.i32())
	case payload.Int64:
		return fmt.Sprint(t.i64())
	case payload.Bool:
		return fmt.Sprint(t.bools())
	case payload.Uint8:
		return fmt.Sprint(t.u8())
	case payload.Int8:
		return fmt.Sprint(elems[int8](t))
	case payload.Int16:
		return fmt.Sprint(elems[int16](t))
	case payload.Uint16:
		return fmt.Sprint(elems[uint16](t))
	case payload.Uint32:
		return fmt.Sprint(elems[uint32](t))
	case payload.Uint64:
		return fmt.Sprint(elems[uint64](t))
	}
	return fmt.Sprintf("%v bytes %v", t.dt, t.data)
}

// runDMCases runs each case once and checks what it gave. A case that
// gives no output types has one output of input 0's type.
func runDMCases(t *testing.T, cases []dmCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.c.outTypes == nil {
				c.c.outTypes = []payload.DType{c.ins[0].dt}
			}
			outs, err := runNode(t, c.c, c.ins...)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("got error %v, want one wrapping %v", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			for j, w := range c.shapes {
				if !sameShape(outs[j].shape, w) {
					t.Errorf("output %d: got shape %v, want %v", j, outs[j].shape, w)
				}
			}
			for j, w := range c.vals {
				if got := dmValues(outs[j]); got != w {
					t.Errorf("output %d: got %s, want %s", j, got, w)
				}
			}
		})
	}
}

// dmNoAllocs builds c's kernel (outputs of input 0's type unless
// c.outTypes says otherwise), runs it once to size its buffers, then
// fails if running the shape rule, the kernel's shaper and the kernel
// again allocates.
func dmNoAllocs(t *testing.T, name string, c nodeCase, ins ...*tensor) {
	t.Helper()
	types := append([]payload.DType(nil), c.outTypes...)
	for len(types) < len(c.node.Outputs) {
		types = append(types, ins[0].dt)
	}
	c.outTypes = types
	if a := steadyAllocs(t, c, ins...); a != 0 {
		t.Errorf("%s: got %v allocations per run, want 0", name, a)
	}
}

// attrsOf turns flag names into int attributes set to 1 and passes
// attributes through.
func attrsOf(a []any) []model.Attr {
	var out []model.Attr
	for _, x := range a {
		switch v := x.(type) {
		case string:
			out = append(out, aInt(v, 1))
		case model.Attr:
			out = append(out, v)
		}
	}
	return out
}
