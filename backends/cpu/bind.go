package cpu

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

// bindTypes picks, once at load, the functions that move In and Out
// payloads in and out of the model, and checks them against the model's
// inputs and outputs.
func (m *Model[In, Out]) bindTypes() error {
	p := m.prog
	inDT, multiIn, ok := payloadKind[In]()
	if !ok {
		return errs.New(errs.Unsupported, "%s: input payload type %T: use payload.Tensor[E] or payload.Multi", p.label, *new(In))
	}
	outDT, multiOut, ok := payloadKind[Out]()
	if !ok {
		return errs.New(errs.Unsupported, "%s: output payload type %T: use payload.Tensor[E] or payload.Multi", p.label, *new(Out))
	}
	if multiIn {
		m.bindIn = bindMultiIn[In]
	} else {
		if len(p.inputs) != 1 {
			return errs.New(errs.ShapeMismatch, "%s: model has %d inputs; a payload.Tensor carries one (use payload.Multi)", p.label, len(p.inputs))
		}
		if want := p.values[p.inputs[0]].dt; want != inDT {
			return errs.New(errs.ShapeMismatch, "%s: input %q is %s, the payload holds %s", p.label, p.values[p.inputs[0]].name, want, inDT)
		}
		m.bindIn = tensorIn[In](inDT)
	}
	if multiOut {
		m.bindOut = bindMultiOut[Out]
	} else {
		if len(p.outputs) != 1 {
			return errs.New(errs.ShapeMismatch, "%s: model has %d outputs; a payload.Tensor carries one (use payload.Multi)", p.label, len(p.outputs))
		}
		if got := p.values[p.outputs[0]].dt; got != outDT {
			return errs.New(errs.ShapeMismatch, "%s: output %q is %s, the payload holds %s", p.label, p.values[p.outputs[0]].name, got, outDT)
		}
		m.bindOut = tensorOut[Out](outDT)
	}
	return nil
}

// payloadKind reports the element type of a payload.Tensor type, or that
// T is payload.Multi.
func payloadKind[T any]() (dt payload.DType, multi, ok bool) {
	switch any((*T)(nil)).(type) {
	case *payload.Multi:
		return payload.Undefined, true, true
	case *payload.Tensor[float32]:
		return payload.Float32, false, true
	case *payload.Tensor[float64]:
		return payload.Float64, false, true
	case *payload.Tensor[float16.Float16]:
		return payload.Float16, false, true
	case *payload.Tensor[payload.BFloat16]:
		return payload.BF16, false, true
	case *payload.Tensor[int8]:
		return payload.Int8, false, true
	case *payload.Tensor[uint8]:
		return payload.Uint8, false, true
	case *payload.Tensor[int16]:
		return payload.Int16, false, true
	case *payload.Tensor[uint16]:
		return payload.Uint16, false, true
	case *payload.Tensor[int32]:
		return payload.Int32, false, true
	case *payload.Tensor[int64]:
		return payload.Int64, false, true
	case *payload.Tensor[uint32]:
		return payload.Uint32, false, true
	case *payload.Tensor[uint64]:
		return payload.Uint64, false, true
	case *payload.Tensor[bool]:
		return payload.Bool, false, true
	}
	return payload.Undefined, false, false
}

// tensorIn returns the binder for In = payload.Tensor[E] with E of type dt.
func tensorIn[In any](dt payload.DType) func(*exec, *In) error {
	switch dt {
	case payload.Float32:
		return bindTensorIn[In, float32]
	case payload.Float64:
		return bindTensorIn[In, float64]
	case payload.Float16:
		return bindTensorIn[In, float16.Float16]
	case payload.BF16:
		return bindTensorIn[In, payload.BFloat16]
	case payload.Int8:
		return bindTensorIn[In, int8]
	case payload.Uint8:
		return bindTensorIn[In, uint8]
	case payload.Int16:
		return bindTensorIn[In, int16]
	case payload.Uint16:
		return bindTensorIn[In, uint16]
	case payload.Int32:
		return bindTensorIn[In, int32]
	case payload.Int64:
		return bindTensorIn[In, int64]
	case payload.Uint32:
		return bindTensorIn[In, uint32]
	case payload.Uint64:
		return bindTensorIn[In, uint64]
	default:
		return bindTensorIn[In, bool]
	}
}

// tensorOut returns the binder for Out = payload.Tensor[E] with E of type dt.
func tensorOut[Out any](dt payload.DType) func(*exec, *Out) {
	switch dt {
	case payload.Float32:
		return bindTensorOut[Out, float32]
	case payload.Float64:
		return bindTensorOut[Out, float64]
	case payload.Float16:
		return bindTensorOut[Out, float16.Float16]
	case payload.BF16:
		return bindTensorOut[Out, payload.BFloat16]
	case payload.Int8:
		return bindTensorOut[Out, int8]
	case payload.Uint8:
		return bindTensorOut[Out, uint8]
	case payload.Int16:
		return bindTensorOut[Out, int16]
	case payload.Uint16:
		return bindTensorOut[Out, uint16]
	case payload.Int32:
		return bindTensorOut[Out, int32]
	case payload.Int64:
		return bindTensorOut[Out, int64]
	case payload.Uint32:
		return bindTensorOut[Out, uint32]
	case payload.Uint64:
		return bindTensorOut[Out, uint64]
	default:
		return bindTensorOut[Out, bool]
	}
}

func bindTensorIn[In any, E payload.Elem](x *exec, in *In) error {
	p := any(in).(*payload.Tensor[E])
	if !p.Place.HostVisible() {
		return errs.New(errs.ShapeMismatch, "%s: input payload is in %s memory; the cpu backend reads host memory", x.p.label, p.Place)
	}
	return x.setInput(0, payload.DTypeOf[E](), p.Shape, payload.AsBytes(p.Data))
}

func bindTensorOut[Out any, E payload.Elem](x *exec, out *Out) {
	p := any(out).(*payload.Tensor[E])
	t := x.output(0)
	p.Shape = append(p.Shape[:0], t.shape...)
	n := t.numel()
	if cap(p.Data) < n {
		p.Data = make([]E, n)
	}
	p.Data = p.Data[:n]
	copy(payload.AsBytes(p.Data), t.data)
}

func bindMultiIn[In any](x *exec, in *In) error {
	p := any(in).(*payload.Multi)
	named := false
	for i := range p.Tensors {
		if p.Tensors[i].Name != "" {
			named = true
			break
		}
	}
	if len(p.Tensors) != len(x.p.inputs) {
		return errs.New(errs.ShapeMismatch, "%s: model has %d inputs, payload has %d tensors", x.p.label, len(x.p.inputs), len(p.Tensors))
	}
	for i, vi := range x.p.inputs {
		var d *payload.Dynamic
		if named {
			d = p.Get(x.p.values[vi].name)
			if d == nil {
				return errs.New(errs.ShapeMismatch, "%s: input %q is missing from the payload", x.p.label, x.p.values[vi].name)
			}
		} else {
			d = &p.Tensors[i]
		}
		if !d.Place.HostVisible() {
			return errs.New(errs.ShapeMismatch, "%s: input %q is in %s memory; the cpu backend reads host memory", x.p.label, x.p.values[vi].name, d.Place)
		}
		if err := x.setInput(i, d.DType, d.Shape, d.Data); err != nil {
			return err
		}
	}
	return nil
}

func bindMultiOut[Out any](x *exec, out *Out) {
	p := any(out).(*payload.Multi)
	n := len(x.p.outputs)
	if cap(p.Tensors) < n {
		p.Tensors = append(p.Tensors[:cap(p.Tensors)], make([]payload.Dynamic, n-cap(p.Tensors))...)
	}
	p.Tensors = p.Tensors[:n]
	for i := range n {
		t := x.output(i)
		d := &p.Tensors[i]
		d.Name = x.p.values[x.p.outputs[i]].name
		d.DType = t.dt
		d.Shape = append(d.Shape[:0], t.shape...)
		need := len(t.data)
		if cap(d.Data) < need || !payload.IsAligned(d.Data[:cap(d.Data)], 8) {
			d.Data = alignedBytes(need)
		}
		d.Data = d.Data[:need]
		copy(d.Data, t.data)
		d.Place = memclass.Host
	}
}
