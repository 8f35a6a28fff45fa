package gpu

import (
	"github.com/lintel-ml/lintel/backends/internal/meta"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// inView returns the element type, shape, bytes and memory class of model
// input j as a payload carries it.
type inView[In any] func(m any, in *In, j int) (payload.DType, []int, []byte, memclass.Class, error)

// outView returns the bytes and memory class of output payload k as it is
// before the call: where an output in device memory is to be written.
type outView[Out any] func(out *Out, k int) ([]byte, memclass.Class)

// outWriter writes item i's outputs to out.
type outWriter[Out any] func(x *exec, out *Out, i int)

// bindTypes checks, once at load, that In and Out fit the model's inputs
// and outputs, and picks the functions that move payloads.
func (m *Model[In, Out]) bindTypes() error {
	g := m.g
	inDT, multiIn, ok := payloadKind[In]()
	if !ok {
		return errs.New(errs.Unsupported, "%s: input payload type %T: use payload.Tensor[E] with E float32, int32, int64 or bool, or payload.Multi", m.label, *new(In))
	}
	outDT, multiOut, ok := payloadKind[Out]()
	if !ok {
		return errs.New(errs.Unsupported, "%s: output payload type %T: use payload.Tensor[E] with E float32, int32, int64 or bool, or payload.Multi", m.label, *new(Out))
	}
	if multiIn {
		m.view = m.viewMulti
	} else {
		if len(g.Inputs) != 1 {
			return errs.New(errs.ShapeMismatch, "%s: model has %d inputs; a payload.Tensor carries one (use payload.Multi)", m.label, len(g.Inputs))
		}
		if want := g.Inputs[0].DType; want != inDT {
			return errs.New(errs.TypeMismatch, "%s: input %q is %s, the payload holds %s", m.label, g.Inputs[0].Name, want, inDT)
		}
		m.view = viewTensor[In]
	}
	if multiOut {
		m.write = m.writeMulti
		m.outPlace = outPlaceMulti[Out]
	} else {
		if len(g.Outputs) != 1 {
			return errs.New(errs.ShapeMismatch, "%s: model has %d outputs; a payload.Tensor carries one (use payload.Multi)", m.label, len(g.Outputs))
		}
		got := g.Outputs[0].DType
		if v := g.Values[g.Outputs[0].Name]; v != nil && v.DType.Valid() {
			got = v.DType
		}
		if got != outDT {
			return errs.New(errs.TypeMismatch, "%s: output %q is %s, the payload holds %s", m.label, g.Outputs[0].Name, got, outDT)
		}
		m.write = writeTensor[Out]
		m.outPlace = outPlaceTensor[Out]
	}
	return nil
}

// payloadKind reports the element type of a payload.Tensor type the
// backend moves, or that T is payload.Multi.
func payloadKind[T any]() (dt payload.DType, multi, ok bool) {
	switch any((*T)(nil)).(type) {
	case *payload.Multi:
		return payload.Undefined, true, true
	case *payload.Tensor[float32]:
		return payload.Float32, false, true
	case *payload.Tensor[int32]:
		return payload.Int32, false, true
	case *payload.Tensor[int64]:
		return payload.Int64, false, true
	case *payload.Tensor[bool]:
		return payload.Bool, false, true
	}
	return payload.Undefined, false, false
}

// tensorBytes returns a tensor payload's element type, shape and bytes.
func tensorBytes(p any) (payload.DType, []int, []byte, memclass.Class) {
	switch t := p.(type) {
	case *payload.Tensor[float32]:
		return payload.Float32, t.Shape, payload.AsBytes(t.Data), t.Place
	case *payload.Tensor[int32]:
		return payload.Int32, t.Shape, payload.AsBytes(t.Data), t.Place
	case *payload.Tensor[int64]:
		return payload.Int64, t.Shape, payload.AsBytes(t.Data), t.Place
	case *payload.Tensor[bool]:
		return payload.Bool, t.Shape, payload.AsBytes(t.Data), t.Place
	}
	return payload.Undefined, nil, nil, memclass.Host
}

func viewTensor[In any](_ any, in *In, _ int) (payload.DType, []int, []byte, memclass.Class, error) {
	dt, shape, data, place := tensorBytes(in)
	return dt, shape, data, place, nil
}

func (m *Model[In, Out]) viewMulti(_ any, in *In, j int) (payload.DType, []int, []byte, memclass.Class, error) {
	p := any(in).(*payload.Multi)
	if len(p.Tensors) != len(m.g.Inputs) {
		return 0, nil, nil, memclass.Host, errs.New(errs.ShapeMismatch, "%s: model has %d inputs, payload has %d tensors", m.label, len(m.g.Inputs), len(p.Tensors))
	}
	name := m.g.Inputs[j].Name
	d := &p.Tensors[j]
	if d.Name != "" || p.Tensors[0].Name != "" {
		if d = p.Get(name); d == nil {
			names := make([]string, len(m.g.Inputs))
			for k, in := range m.g.Inputs {
				names[k] = in.Name
			}
			return 0, nil, nil, memclass.Host, meta.MissingInput(m.label, name, p, names)
		}
	}
	return d.DType, d.Shape, d.Data, d.Place, nil
}

// outPlaceTensor returns a tensor output payload's bytes and class.
func outPlaceTensor[Out any](out *Out, _ int) ([]byte, memclass.Class) {
	_, _, data, place := tensorBytes(out)
	return data, place
}

// outPlaceMulti returns output k of a payload.Multi as it is before the
// call: the tensor at position k, or host memory when there is none yet.
func outPlaceMulti[Out any](out *Out, k int) ([]byte, memclass.Class) {
	p := any(out).(*payload.Multi)
	if k >= len(p.Tensors) {
		return nil, memclass.Host
	}
	return p.Tensors[k].Data, p.Tensors[k].Place
}

// deviceAddr returns the device address of bytes a payload holds in
// device memory: they must lie in one of a Recorder's own allocations.
func (m *Model[In, Out]) deviceAddr(data []byte, what, name string, place memclass.Class) (uintptr, error) {
	if m.x.rec == nil {
		return 0, errs.New(errs.ShapeMismatch, "%s: %s %q is in %s memory; the %s backend reads and writes host-visible memory", m.label, what, name, place, m.cfg.Name)
	}
	a, ok := m.x.rec.DeviceAddr(data)
	if !ok {
		return 0, errs.New(errs.ShapeMismatch, "%s: %s %q is in %s memory that is not an allocation of this %s device", m.label, what, name, place, m.cfg.Name)
	}
	return a, nil
}

// place records, for item i, where each output goes: to the host, or
// device to device into an output payload already in device memory, which
// must hold enough bytes.
func (m *Model[In, Out]) place(i int, out *Out) error {
	it := &m.x.its[i]
	for k := range it.outAddr {
		it.outAddr[k] = 0
		data, place := m.outPlace(out, k)
		if place.HostVisible() {
			continue
		}
		o := &it.p.outputs[k]
		if len(data) < o.size {
			return errs.New(errs.ShapeMismatch, "%s: output %q in %s memory holds %d bytes, the result needs %d", m.label, o.name, place, len(data), o.size)
		}
		if o.size == 0 {
			continue
		}
		a, err := m.deviceAddr(data, "output", o.name, place)
		if err != nil {
			return err
		}
		it.outAddr[k] = a
	}
	return nil
}

// grow returns s resized to n, reallocating only when too small.
func grow[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	return s[:n]
}

func writeTensor[Out any](x *exec, out *Out, i int) {
	data, o := x.output(i, 0)
	if data == nil && o.size > 0 {
		// The bytes went device to device into the payload.
		setDeviceTensor(out, o)
		return
	}
	switch t := any(out).(type) {
	case *payload.Tensor[float32]:
		t.Shape = append(t.Shape[:0], o.shape...)
		t.Data = grow(t.Data, len(data)/4)
		copy(payload.AsBytes(t.Data), data)
		t.Place = memclass.Host
	case *payload.Tensor[int32]:
		t.Shape = append(t.Shape[:0], o.shape...)
		t.Data = grow(t.Data, len(data)/4)
		copy(payload.AsBytes(t.Data), data)
		t.Place = memclass.Host
	case *payload.Tensor[int64]:
		t.Shape = append(t.Shape[:0], o.shape...)
		t.Data = grow(t.Data, len(data)/8)
		copy(payload.AsBytes(t.Data), data)
		t.Place = memclass.Host
	case *payload.Tensor[bool]:
		t.Shape = append(t.Shape[:0], o.shape...)
		t.Data = grow(t.Data, len(data))
		copy(payload.AsBytes(t.Data), data)
		t.Place = memclass.Host
	}
}

func (m *Model[In, Out]) writeMulti(x *exec, out *Out, i int) {
	p := any(out).(*payload.Multi)
	n := len(m.g.Outputs)
	if cap(p.Tensors) < n {
		p.Tensors = append(p.Tensors[:cap(p.Tensors)], make([]payload.Dynamic, n-cap(p.Tensors))...)
	}
	p.Tensors = p.Tensors[:n]
	for k := range n {
		data, o := x.output(i, k)
		d := &p.Tensors[k]
		d.Name, d.DType = o.name, o.dt
		d.Shape = append(d.Shape[:0], o.shape...)
		if data == nil && o.size > 0 {
			// The bytes went device to device into the payload.
			d.Data = d.Data[:o.size]
			continue
		}
		if cap(d.Data) < len(data) || !payload.IsAligned(d.Data[:cap(d.Data)], 8) {
			// Eight-byte aligned, so that payload.Typed can view it.
			d.Data = payload.AsBytes(make([]uint64, (len(data)+7)/8))
		}
		d.Data = d.Data[:len(data)]
		copy(d.Data, data)
		d.Place = memclass.Host
	}
}

// setDeviceTensor sets the shape of a tensor output in device memory whose
// bytes were written device to device, and trims its data to them.
func setDeviceTensor[Out any](out *Out, o *outInfo) {
	n := o.size / max(o.dt.Size(), 1)
	switch t := any(out).(type) {
	case *payload.Tensor[float32]:
		t.Shape, t.Data = append(t.Shape[:0], o.shape...), t.Data[:n]
	case *payload.Tensor[int32]:
		t.Shape, t.Data = append(t.Shape[:0], o.shape...), t.Data[:n]
	case *payload.Tensor[int64]:
		t.Shape, t.Data = append(t.Shape[:0], o.shape...), t.Data[:n]
	case *payload.Tensor[bool]:
		t.Shape, t.Data = append(t.Shape[:0], o.shape...), t.Data[:n]
	}
}
