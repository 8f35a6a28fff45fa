package cpu

import (
	"unsafe"

	"github.com/lintel-ml/lintel/backends/internal/meta"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

// inView returns the element type, shape and bytes of model input j as a
// payload carries it.
type inView[In any] func(x *exec, in *In, j int) (payload.DType, []int, []byte, error)

// outWriter writes item `item` of `count` stacked items of every model
// output to out; count is 1 outside stacked batches.
type outWriter[Out any] func(x *exec, out *Out, item, count int)

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
	if err := p.checkContainerIO(multiIn, multiOut); err != nil {
		return err
	}
	if multiIn {
		m.view = viewMulti[In]
	} else {
		if len(p.inputs) != 1 {
			return errs.New(errs.ShapeMismatch, "%s: model has %d inputs; a payload.Tensor carries one (use payload.Multi)", p.label, len(p.inputs))
		}
		if want := p.values[p.inputs[0]].dt; want != inDT {
			return errs.New(errs.TypeMismatch, "%s: input %q is %s, the payload holds %s", p.label, p.values[p.inputs[0]].name, want, inDT)
		}
		m.view = tensorIn[In](inDT)
	}
	if multiOut {
		m.write = writeMulti[Out]
	} else {
		if len(p.outputs) != 1 {
			return errs.New(errs.ShapeMismatch, "%s: model has %d outputs; a payload.Tensor carries one (use payload.Multi)", p.label, len(p.outputs))
		}
		if got := p.values[p.outputs[0]].dt; got != outDT {
			return errs.New(errs.TypeMismatch, "%s: output %q is %s, the payload holds %s", p.label, p.values[p.outputs[0]].name, got, outDT)
		}
		m.write = tensorOut[Out](outDT)
		m.outBytes = outBytesOf[Out](outDT)
	}
	return nil
}

// bind sets every model input from in.
func (m *Model[In, Out]) bind(in *In) error {
	for j := range m.prog.inputs {
		if m.prog.values[m.prog.inputs[j]].vk != model.KindTensor {
			if err := m.x.setValueInput(j, in); err != nil {
				return err
			}
			continue
		}
		dt, shape, data, err := m.view(m.x, in, j)
		if err != nil {
			return err
		}
		if err := m.x.setInput(j, dt, shape, data); err != nil {
			return err
		}
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
	case *payload.Tensor[payload.Float8E4M3FN]:
		return payload.F8E4M3FN, false, true
	case *payload.Tensor[payload.Float8E4M3FNUZ]:
		return payload.F8E4M3FNUZ, false, true
	case *payload.Tensor[payload.Float8E5M2]:
		return payload.F8E5M2, false, true
	case *payload.Tensor[payload.Float8E5M2FNUZ]:
		return payload.F8E5M2FNUZ, false, true
	case *payload.Tensor[payload.Float8E8M0]:
		return payload.F8E8M0, false, true
	case *payload.Tensor[payload.Float4E2M1]:
		return payload.F4E2M1, false, true
	case *payload.Tensor[payload.Uint4]:
		return payload.U4, false, true
	case *payload.Tensor[payload.Int4]:
		return payload.I4, false, true
	case *payload.Tensor[payload.Uint2]:
		return payload.U2, false, true
	case *payload.Tensor[payload.Int2]:
		return payload.I2, false, true
	}
	return payload.Undefined, false, false
}

// tensorIn returns the view for In = payload.Tensor[E] with E of type dt.
func tensorIn[In any](dt payload.DType) inView[In] {
	switch dt {
	case payload.Float32:
		return viewTensor[In, float32]
	case payload.Float64:
		return viewTensor[In, float64]
	case payload.Float16:
		return viewTensor[In, float16.Float16]
	case payload.BF16:
		return viewTensor[In, payload.BFloat16]
	case payload.Int8:
		return viewTensor[In, int8]
	case payload.Uint8:
		return viewTensor[In, uint8]
	case payload.Int16:
		return viewTensor[In, int16]
	case payload.Uint16:
		return viewTensor[In, uint16]
	case payload.Int32:
		return viewTensor[In, int32]
	case payload.Int64:
		return viewTensor[In, int64]
	case payload.Uint32:
		return viewTensor[In, uint32]
	case payload.Uint64:
		return viewTensor[In, uint64]
	case payload.F8E4M3FN:
		return viewTensor[In, payload.Float8E4M3FN]
	case payload.F8E4M3FNUZ:
		return viewTensor[In, payload.Float8E4M3FNUZ]
	case payload.F8E5M2:
		return viewTensor[In, payload.Float8E5M2]
	case payload.F8E5M2FNUZ:
		return viewTensor[In, payload.Float8E5M2FNUZ]
	case payload.F8E8M0:
		return viewTensor[In, payload.Float8E8M0]
	case payload.F4E2M1:
		return viewTensor[In, payload.Float4E2M1]
	case payload.U4:
		return viewTensor[In, payload.Uint4]
	case payload.I4:
		return viewTensor[In, payload.Int4]
	case payload.U2:
		return viewTensor[In, payload.Uint2]
	case payload.I2:
		return viewTensor[In, payload.Int2]
	default:
		return viewTensor[In, bool]
	}
}

// tensorOut returns the writer for Out = payload.Tensor[E] with E of type dt.
func tensorOut[Out any](dt payload.DType) outWriter[Out] {
	switch dt {
	case payload.Float32:
		return writeTensor[Out, float32]
	case payload.Float64:
		return writeTensor[Out, float64]
	case payload.Float16:
		return writeTensor[Out, float16.Float16]
	case payload.BF16:
		return writeTensor[Out, payload.BFloat16]
	case payload.Int8:
		return writeTensor[Out, int8]
	case payload.Uint8:
		return writeTensor[Out, uint8]
	case payload.Int16:
		return writeTensor[Out, int16]
	case payload.Uint16:
		return writeTensor[Out, uint16]
	case payload.Int32:
		return writeTensor[Out, int32]
	case payload.Int64:
		return writeTensor[Out, int64]
	case payload.Uint32:
		return writeTensor[Out, uint32]
	case payload.Uint64:
		return writeTensor[Out, uint64]
	case payload.F8E4M3FN:
		return writeTensor[Out, payload.Float8E4M3FN]
	case payload.F8E4M3FNUZ:
		return writeTensor[Out, payload.Float8E4M3FNUZ]
	case payload.F8E5M2:
		return writeTensor[Out, payload.Float8E5M2]
	case payload.F8E5M2FNUZ:
		return writeTensor[Out, payload.Float8E5M2FNUZ]
	case payload.F8E8M0:
		return writeTensor[Out, payload.Float8E8M0]
	case payload.F4E2M1:
		return writeTensor[Out, payload.Float4E2M1]
	case payload.U4:
		return writeTensor[Out, payload.Uint4]
	case payload.I4:
		return writeTensor[Out, payload.Int4]
	case payload.U2:
		return writeTensor[Out, payload.Uint2]
	case payload.I2:
		return writeTensor[Out, payload.Int2]
	default:
		return writeTensor[Out, bool]
	}
}

func viewTensor[In any, E payload.Elem](x *exec, in *In, j int) (payload.DType, []int, []byte, error) {
	p := any(in).(*payload.Tensor[E])
	if !p.Place.HostVisible() {
		return 0, nil, nil, errs.New(errs.ShapeMismatch, "%s: input payload is in %s memory; the cpu backend reads host memory", x.p.label, p.Place)
	}
	return payload.DTypeOf[E](), p.Shape, payload.AsBytes(p.Data), nil
}

// chunk returns item `item` of `count` equal parts of t along axis 0,
// writing its shape into shape.
func chunk(t *tensor, item, count int, shape []int) ([]int, []byte) {
	shape = append(shape[:0], t.shape...)
	if count == 1 {
		return shape, t.data
	}
	shape[0] /= count
	n := len(t.data) / count
	return shape, t.data[item*n : (item+1)*n]
}

func writeTensor[Out any, E payload.Elem](x *exec, out *Out, item, count int) {
	p := any(out).(*payload.Tensor[E])
	var data []byte
	p.Shape, data = chunk(x.output(0), item, count, p.Shape)
	n := len(data) / max(payload.DTypeOf[E]().Size(), 1)
	if cap(p.Data) < n {
		p.Data = make([]E, n)
	}
	p.Data = p.Data[:n]
	p.Place = memclass.Host
	if n > 0 && unsafe.Pointer(&data[0]) == unsafe.Pointer(&p.Data[0]) {
		return // the last node wrote it there (direct.go)
	}
	copy(payload.AsBytes(p.Data), data)
}

func viewMulti[In any](x *exec, in *In, j int) (payload.DType, []int, []byte, error) {
	p := any(in).(*payload.Multi)
	if len(p.Tensors) != len(x.p.inputs) {
		return 0, nil, nil, errs.New(errs.ShapeMismatch, "%s: model has %d inputs, payload has %d tensors", x.p.label, len(x.p.inputs), len(p.Tensors))
	}
	name := x.p.values[x.p.inputs[j]].name
	d := &p.Tensors[j]
	if d.Name != "" || p.Tensors[0].Name != "" {
		if d = p.Get(name); d == nil {
			names := make([]string, len(x.p.inputs))
			for k, v := range x.p.inputs {
				names[k] = x.p.values[v].name
			}
			return 0, nil, nil, meta.MissingInput(x.p.label, name, p, names)
		}
	}
	if !d.Place.HostVisible() {
		return 0, nil, nil, errs.New(errs.ShapeMismatch, "%s: input %q is in %s memory; the cpu backend reads host memory", x.p.label, name, d.Place)
	}
	return d.DType, d.Shape, d.Data, nil
}

// overlapsEarlier reports whether b shares a byte with the data of one of
// the outputs already written, ts.
func overlapsEarlier(ts []payload.Dynamic, b []byte) bool {
	for j := range ts {
		if overlaps(b, ts[j].Data) {
			return true
		}
	}
	return false
}

func writeMulti[Out any](x *exec, out *Out, item, count int) {
	p := any(out).(*payload.Multi)
	n := len(x.p.outputs)
	if cap(p.Tensors) < n {
		p.Tensors = append(p.Tensors[:cap(p.Tensors)], make([]payload.Dynamic, n-cap(p.Tensors))...)
	}
	p.Tensors = p.Tensors[:n]
	for i := range n {
		t := x.output(i)
		d := &p.Tensors[i]
		if x.p.values[x.p.outputs[i]].vk != model.KindTensor {
			writeValue(d, t, x.p.values[x.p.outputs[i]].name)
			continue
		}
		d.Items = nil
		var data []byte
		d.Shape, data = chunk(t, item, count, d.Shape)
		d.Name = x.p.values[x.p.outputs[i]].name
		d.DType = t.dt
		if cap(d.Data) < len(data) || !payload.IsAligned(d.Data[:cap(d.Data)], 8) || overlapsEarlier(p.Tensors[:i], d.Data[:cap(d.Data)]) {
			d.Data = alignedBytes(len(data))
		}
		d.Data = d.Data[:len(data)]
		if len(data) == 0 || &d.Data[0] != &data[0] {
			copy(d.Data, data) // else the last node wrote it there (direct.go)
		}
		d.Place = memclass.Host
	}
}
