package cpu

import (
	"github.com/lintel-ml/lintel/backends/internal/meta"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Sequence and optional values (docs/adr/0026-sequences-and-optionals.md).
//
// A sequence value is a tensor with seq set whose items are its elements;
// its own shape is [] and its data unused. The executor sizes it as a
// one-element scalar, which the kernels ignore. A kernel that outputs a
// sequence copies the elements it is given into the output's items,
// whose tensors and buffers it keeps across calls: in steady state it
// allocates only when a sequence gets longer, or an element larger, than
// before. An optional value is a tensor or a sequence with none set when
// it holds no element.

// containerOps are the ops that take or give sequences and optionals.
var containerOps = map[string]bool{
	"SequenceEmpty": true, "SequenceConstruct": true, "SequenceInsert": true,
	"SequenceErase": true, "SequenceAt": true, "SequenceLength": true,
	"SplitToSequence": true, "ConcatFromSequence": true, "Optional": true,
	"OptionalHasElement": true, "OptionalGetElement": true, "Identity": true,
	"If": true, "Loop": true, "SequenceMap": true,
}

// checkKinds refuses a node that takes or gives a sequence or optional
// value unless its op handles them.
func checkKinds(c *buildCtx) error {
	if containerOps[c.n.OpType] && (c.n.Domain == "" || c.n.Domain == "ai.onnx") {
		return nil
	}
	for i, v := range c.in {
		if v.Kind != model.KindTensor {
			return c.unsupported("input %d is a value of kind %s, which the op does not take on the cpu backend", i, v.Kind)
		}
	}
	for j, v := range c.out {
		if v.Kind != model.KindTensor {
			return c.unsupported("output %d is a value of kind %s, which the op does not give on the cpu backend", j, v.Kind)
		}
	}
	return nil
}

// hasContainers reports whether a graph input or output is a sequence or
// optional value.
func (p *program) hasContainers() bool {
	for _, v := range p.inputs {
		if p.values[v].vk != model.KindTensor {
			return true
		}
	}
	for _, v := range p.outputs {
		if p.values[v].vk != model.KindTensor {
			return true
		}
	}
	return false
}

// checkContainerIO refuses sequence and optional graph inputs and
// outputs unless payload.Multi carries them.
func (p *program) checkContainerIO(multiIn, multiOut bool) error {
	for _, v := range p.inputs {
		if vk := p.values[v].vk; vk != model.KindTensor && !multiIn {
			return errs.New(errs.Unsupported, "%s: input %q is a value of kind %s: only payload.Multi carries it", p.label, p.values[v].name, vk)
		}
	}
	for _, v := range p.outputs {
		if vk := p.values[v].vk; vk != model.KindTensor && !multiOut {
			return errs.New(errs.Unsupported, "%s: output %q is a value of kind %s: only payload.Multi carries it", p.label, p.values[v].name, vk)
		}
	}
	return nil
}

// setLen sets the number of t's items to n, keeping the tensors (and
// their buffers) of earlier calls.
func (t *tensor) setLen(n int) {
	if n > cap(t.items) {
		grown := make([]*tensor, n, 2*n)
		copy(grown, t.items[:cap(t.items)])
		t.items = grown
	}
	t.items = t.items[:n]
	for i, it := range t.items {
		if it == nil {
			t.items[i] = &tensor{}
		}
	}
}

// copyFrom makes t a copy of src's type, shape and bytes in t's own
// buffer.
func (t *tensor) copyFrom(src *tensor) {
	t.dt = src.dt
	t.shape = append(t.shape[:0], src.shape...)
	if cap(t.data) < len(src.data) {
		t.data = alignedBytes(len(src.data))
	}
	t.data = t.data[:len(src.data)]
	copy(t.data, src.data)
}

// copyValue makes out a copy of the sequence or optional value in (its
// items, or its bytes); none carries over.
func copyValue(out, in *tensor) {
	out.none = in.none
	if in.seq || out.seq {
		out.setLen(len(in.items))
		for i, it := range in.items {
			out.items[i].copyFrom(it)
		}
		return
	}
	if !in.none {
		copy(out.data, in.data)
	}
}

// setValueInput sets graph input i, a sequence or optional value, from
// the payload.Multi entry that carries it (see payload.Dynamic). The
// elements' bytes are viewed, not copied.
func (x *exec) setValueInput(i int, in any) error {
	p, ok := in.(*payload.Multi)
	v := &x.p.values[x.p.inputs[i]]
	if !ok {
		return errs.New(errs.Unsupported, "%s: input %q is a value of kind %s: only payload.Multi carries it", x.p.label, v.name, v.vk)
	}
	if len(p.Tensors) != len(x.p.inputs) {
		return errs.New(errs.ShapeMismatch, "%s: model has %d inputs, payload has %d tensors", x.p.label, len(x.p.inputs), len(p.Tensors))
	}
	d := &p.Tensors[i]
	if d.Name != "" || p.Tensors[0].Name != "" {
		if d = p.Get(v.name); d == nil {
			names := make([]string, len(x.p.inputs))
			for k, w := range x.p.inputs {
				names[k] = x.p.values[w].name
			}
			return meta.MissingInput(x.p.label, v.name, p, names)
		}
	}
	t := &x.vals[x.p.inputs[i]]
	t.none = false
	if v.vk.IsOptional() && d.Items == nil && d.DType == payload.Undefined {
		t.none = true
		t.shape = t.shape[:0]
		t.data = nil
		t.setLen(0)
		x.bound[i] = true
		return nil
	}
	if !v.vk.IsSequence() {
		if d.Items != nil {
			return errs.New(errs.TypeMismatch, "%s: input %q is a %s, the payload holds a sequence", x.p.label, v.name, v.vk)
		}
		if err := x.setInput(i, d.DType, d.Shape, d.Data); err != nil {
			return err
		}
		x.vals[x.p.inputs[i]].none = false
		return nil
	}
	if d.Items == nil {
		return errs.New(errs.TypeMismatch, "%s: input %q is a %s: the payload's Items must hold its elements", x.p.label, v.name, v.vk)
	}
	t.shape = t.shape[:0]
	t.setLen(len(d.Items))
	for k := range d.Items {
		e := &d.Items[k]
		if e.DType != v.dt {
			return errs.New(errs.TypeMismatch, "%s: input %q: element %d is %s, want %s", x.p.label, v.name, k, e.DType, v.dt)
		}
		if !e.Place.HostVisible() {
			return errs.New(errs.ShapeMismatch, "%s: input %q: element %d is in %s memory; the cpu backend reads host memory", x.p.label, v.name, k, e.Place)
		}
		n := payload.NumElems(e.Shape)
		if n < 0 || (e.DType == payload.String && payload.CheckStrings(e.Data, n) != nil) || (e.DType != payload.String && len(e.Data) != n*e.DType.Size()) {
			return errs.New(errs.ShapeMismatch, "%s: input %q: element %d: shape %v does not match its %d bytes", x.p.label, v.name, k, e.Shape, len(e.Data))
		}
		if !payload.IsAligned(e.Data, e.DType.Size()) {
			return errs.New(errs.ShapeMismatch, "%s: input %q: element %d is not aligned to its %d-byte elements", x.p.label, v.name, k, e.DType.Size())
		}
		it := t.items[k]
		it.dt = e.DType
		it.shape = append(it.shape[:0], e.Shape...)
		it.data = e.Data
	}
	x.bound[i] = true
	return nil
}

// writeValue copies the sequence or optional output t into d.
func writeValue(d *payload.Dynamic, t *tensor, name string) {
	d.Name = name
	d.Place = memclass.Host
	if t.none {
		d.DType, d.Shape, d.Data, d.Items = payload.Undefined, d.Shape[:0], d.Data[:0], nil
		return
	}
	if !t.seq {
		d.Items = nil
		d.DType = t.dt
		d.Shape = append(d.Shape[:0], t.shape...)
		if cap(d.Data) < len(t.data) || !payload.IsAligned(d.Data[:cap(d.Data)], 8) {
			d.Data = alignedBytes(len(t.data))
		}
		d.Data = d.Data[:len(t.data)]
		copy(d.Data, t.data)
		return
	}
	d.DType, d.Shape, d.Data = payload.Undefined, d.Shape[:0], d.Data[:0]
	if d.Items == nil || cap(d.Items) < len(t.items) {
		d.Items = append(make([]payload.Dynamic, 0, len(t.items)), d.Items...)
	}
	d.Items = d.Items[:len(t.items)]
	for k, it := range t.items {
		e := &d.Items[k]
		writeValue(e, it, "")
		e.Items = nil
	}
}

// bindValue sets graph input i of a subgraph's executor to the sequence
// or optional value t of the outer graph, viewing its elements.
func (x *exec) bindValue(i int, t *tensor) error {
	v := &x.p.values[x.p.inputs[i]]
	if t.seq != v.vk.IsSequence() || (t.none && !v.vk.IsOptional()) {
		return errs.New(errs.TypeMismatch, "%s: input %q is a value of kind %s, given another kind", x.p.label, v.name, v.vk)
	}
	if !t.none && t.dt != v.dt {
		return errs.New(errs.TypeMismatch, "%s: input %q: element type %s, want %s", x.p.label, v.name, t.dt, v.dt)
	}
	d := &x.vals[x.p.inputs[i]]
	d.none = t.none
	d.shape = append(d.shape[:0], t.shape...)
	d.data = t.data
	// The items are the outer value's, capped so that nothing appends
	// into its array.
	d.items = t.items[:len(t.items):len(t.items)]
	x.bound[i] = true
	return nil
}
