//go:build cuda && cgo

package cuda

import (
	"unsafe"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// regions is the process's record of NewTensor's allocations.
var regions regionSet

// NewTensor returns a tensor of the given shape with zeroed data in memory
// of class c:
//   - memclass.Host: ordinary Go memory, as payload.NewTensor gives;
//   - memclass.Pinned: page-locked host memory (cuMemHostAlloc), read and
//     written on the host as usual, which the GPU reads and writes by DMA;
//   - memclass.Device(0): GPU memory. Data's address is a device address:
//     its length and capacity are right, but reading or writing an element
//     on the host crashes the process. Pass it to a model, as input or
//     output, or copy it with CopyTensor.
//
// Pinned and device tensors are not garbage collected: release each with
// Free. A pinned or device tensor of zero elements holds no memory. A
// machine without the driver or a GPU fails with
// compute.ErrResourceUnavailable, as does running out of memory.
func NewTensor[E payload.Elem](c memclass.Class, shape ...int) (payload.Tensor[E], error) {
	if c == memclass.Host {
		return newHostTensor[E](shape)
	}
	if c.Kind() != memclass.KindPinned && c != memclass.Device(ordinal) {
		return payload.Tensor[E]{}, errs.New(errs.Unsupported, "cuda: NewTensor in %s memory: the backend allocates host, pinned and device(%d) memory", c, ordinal)
	}
	n, err := tensorLen[E](shape)
	if err != nil {
		return payload.Tensor[E]{}, err
	}
	g, err := openShared()
	if err != nil {
		return payload.Tensor[E]{}, err
	}
	t := payload.Tensor[E]{Shape: append([]int(nil), shape...), Place: c}
	size := n * int(unsafe.Sizeof(*new(E)))
	if size == 0 {
		t.Data = []E{}
		return t, nil
	}
	var base unsafe.Pointer
	if c.Kind() == memclass.KindPinned {
		b, err := g.allocHost(size)
		if err != nil {
			return payload.Tensor[E]{}, err
		}
		clear(b)
		base = unsafe.Pointer(unsafe.SliceData(b))
	} else {
		p, err := g.alloc(size)
		if err != nil {
			return payload.Tensor[E]{}, err
		}
		if err := g.memset(p, size); err != nil {
			g.free(p)
			return payload.Tensor[E]{}, err
		}
		// A device address stored as a pointer: the garbage collector
		// ignores pointers outside the Go heap, and the driver reserves
		// device addresses apart from any host mapping.
		base = *(*unsafe.Pointer)(unsafe.Pointer(&p))
	}
	t.Data = unsafe.Slice((*E)(base), n)
	regions.add(region{addr: uintptr(base), size: uintptr(size), class: c})
	return t, nil
}

// Free releases a pinned or device tensor from NewTensor and clears t. A
// host tensor is just cleared, for the garbage collector. The memory is
// found by Data's address, so a pinned tensor a model wrote as an output
// (which then says memclass.Host) is still released. Freeing a pinned or
// device tensor NewTensor did not allocate, or freeing one twice, is an
// error, never a crash. A model must not be running on t.
func Free[E payload.Elem](t *payload.Tensor[E]) error {
	if t == nil {
		return nil
	}
	if cap(t.Data) > 0 {
		base := unsafe.Pointer(unsafe.SliceData(t.Data))
		if r, ok := regions.remove(uintptr(base)); ok {
			g := sharedGPU()
			if r.class.Kind() == memclass.KindPinned {
				g.freeHost(unsafe.Slice((*byte)(base), r.size))
			} else {
				g.free(devptr(r.addr))
			}
			*t = payload.Tensor[E]{}
			return nil
		}
	}
	if t.Place != memclass.Host && cap(t.Data) > 0 {
		return errs.New(errs.ShapeMismatch, "cuda: Free of a %s tensor NewTensor did not allocate, or already freed", t.Place)
	}
	*t = payload.Tensor[E]{}
	return nil
}

// CopyTensor copies src's elements into dst, which must hold exactly as
// many, and gives dst src's shape. Either may live in host, pinned or
// device memory; the copy is synchronous. A device tensor must come from
// NewTensor.
func CopyTensor[E payload.Elem](dst, src *payload.Tensor[E]) error {
	if dst == nil || src == nil {
		return errs.New(errs.ShapeMismatch, "cuda: CopyTensor of a nil tensor")
	}
	n := src.Len()
	if n < 0 || n != len(src.Data) || n != len(dst.Data) {
		return errs.New(errs.ShapeMismatch, "cuda: CopyTensor of shape %v (%d elements) into %d elements", src.Shape, len(src.Data), len(dst.Data))
	}
	sb, db := payload.AsBytes(src.Data), payload.AsBytes(dst.Data)
	sDev, dDev := !src.Place.HostVisible(), !dst.Place.HostVisible()
	for _, c := range []struct {
		dev bool
		b   []byte
		t   memclass.Class
	}{{sDev, sb, src.Place}, {dDev, db, dst.Place}} {
		if !c.dev || len(c.b) == 0 {
			continue
		}
		if r, ok := regions.find(uintptr(unsafe.Pointer(unsafe.SliceData(c.b))), uintptr(len(c.b))); !ok || r.class != c.t {
			return errs.New(errs.ShapeMismatch, "cuda: CopyTensor: a %s tensor NewTensor did not allocate, or already freed", c.t)
		}
	}
	var err error
	switch {
	case len(sb) == 0:
	case sDev && dDev:
		tmp := make([]byte, len(sb))
		if err = download(tmp, sb); err == nil {
			err = upload(db, tmp)
		}
	case sDev:
		err = download(db, sb)
	case dDev:
		err = upload(db, sb)
	default:
		copy(db, sb)
	}
	if err != nil {
		return err
	}
	dst.Shape = append(dst.Shape[:0], src.Shape...)
	return nil
}

// devAddr returns the device address a device tensor's bytes hold.
func devAddr(b []byte) devptr { return devptr(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

// download copies device bytes to the host.
func download(dst, src []byte) error { return sharedGPU().download(dst, devAddr(src)) }

// upload copies host bytes to the device.
func upload(dst, src []byte) error { return sharedGPU().upload(devAddr(dst), src) }
