package artifacts

import (
	"unsafe"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
	"google.golang.org/protobuf/encoding/protowire"
)

// The typed data fields of a TensorProto.
const (
	tdFloat  = iota // float_data
	tdInt32         // int32_data
	tdInt64         // int64_data
	tdDouble        // double_data
	tdUint64        // uint64_data
	tdCount
)

var typedFields = [tdCount]struct {
	name string
	wire protowire.Type
}{
	tdFloat:  {"float_data", wireFixed32},
	tdInt32:  {"int32_data", wireVarint},
	tdInt64:  {"int64_data", wireVarint},
	tdDouble: {"double_data", wireFixed64},
	tdUint64: {"uint64_data", wireVarint},
}

// typedIndex returns the typed-field index of TensorProto field num.
func typedIndex(num protowire.Number) int {
	switch num {
	case 4:
		return tdFloat
	case 5:
		return tdInt32
	case 7:
		return tdInt64
	case 10:
		return tdDouble
	}
	return tdUint64
}

// typedField returns which typed field holds elements of dt and how many
// values make one element, or -1 for none.
func typedField(dt payload.DType) (field, per int) {
	switch dt {
	case payload.Float32:
		return tdFloat, 1
	case payload.Complex64:
		return tdFloat, 2
	case payload.Int32, payload.Int16, payload.Uint16, payload.Int8, payload.Uint8,
		payload.Bool, payload.Float16, payload.BF16,
		payload.F8E4M3FN, payload.F8E4M3FNUZ, payload.F8E5M2, payload.F8E5M2FNUZ, payload.F8E8M0:
		return tdInt32, 1
	case payload.U4, payload.I4, payload.F4E2M1, payload.U2, payload.I2:
		// Each int32_data value holds one byte of packed elements.
		return tdInt32, 1
	case payload.Int64:
		return tdInt64, 1
	case payload.Float64:
		return tdDouble, 1
	case payload.Complex128:
		return tdDouble, 2
	case payload.Uint64, payload.Uint32:
		return tdUint64, 1
	}
	return -1, 0
}

// decodeTensor decodes a TensorProto into a constant tensor, reading
// external data if the tensor has some.
func (d *decoder) decodeTensor(b []byte) (*model.Tensor, error) {
	t := &model.Tensor{Backing: d.backing}
	var (
		dtype    int64
		raw      []byte
		haveRaw  bool
		typed    [tdCount][][]byte
		ext      [][2]string
		location int64
		strs     [][]byte
	)
	for len(b) > 0 {
		num, wt, err := d.tag(&b)
		if err != nil {
			return nil, err
		}
		var p []byte
		switch num {
		case 1:
			if p, err = d.repeated(&b, wt, wireVarint, "dims"); err != nil {
				return nil, err
			}
			for len(p) > 0 {
				v, n := protowire.ConsumeVarint(p)
				if n < 0 {
					return nil, d.wireErr("varint in field dims", n)
				}
				p = p[n:]
				if len(t.Shape) >= d.lim.MaxRank {
					return nil, d.invalid("rank above Limits.MaxRank (%d)", d.lim.MaxRank)
				}
				if int64(v) < 0 || int64(v) > maxInt {
					return nil, d.invalid("dimension %d", int64(v))
				}
				t.Shape = append(t.Shape, int(v))
			}
		case 2:
			dtype, err = d.int64v(&b, wt, "data_type")
		case 3:
			return nil, d.unsupported("segment: segmented tensors")
		case 6:
			if p, err = d.bytes(&b, wt, "string_data"); err != nil {
				return nil, err
			}
			strs = append(strs, p)
		case 4, 5, 7, 10, 11:
			k := typedIndex(num)
			if p, err = d.repeated(&b, wt, typedFields[k].wire, typedFields[k].name); err != nil {
				return nil, err
			}
			typed[k] = append(typed[k], p)
		case 8:
			t.Name, err = d.str(&b, wt, "name")
			d.setName(t.Name)
		case 9:
			raw, err = d.bytes(&b, wt, "raw_data")
			haveRaw = true
		case 12:
			_, err = d.bytes(&b, wt, "doc_string")
		case 13:
			if p, err = d.bytes(&b, wt, "external_data"); err != nil {
				return nil, err
			}
			d.push("external_data", len(ext))
			kv, err := d.decodeKV(p)
			if err != nil {
				return nil, err
			}
			d.pop()
			ext = append(ext, kv)
		case 14:
			location, err = d.int64v(&b, wt, "data_location")
		default:
			// metadata_props and newer fields.
			err = d.skip(&b, num, wt)
		}
		if err != nil {
			return nil, err
		}
	}

	switch {
	case dtype == 0:
		return nil, d.invalid("tensor has no data_type")
	case dtype == int64(payload.String):
		other := haveRaw || location != 0 || len(ext) > 0
		for k := range typed {
			other = other || len(typed[k]) > 0
		}
		return d.stringTensor(t, strs, other)
	case len(strs) > 0:
		return nil, d.invalid("string_data given for a tensor of element type %d", dtype)
	case dtype < 0 || dtype > 255 || !payload.DType(dtype).Valid():
		return nil, d.unsupported("tensor element type %d", dtype)
	}
	t.DType = payload.DType(dtype)
	numel, err := d.numElems(t.Shape)
	if err != nil {
		return nil, err
	}
	size := int64(t.DType.Size())
	if numel > maxInt/size {
		return nil, d.invalid("tensor of %d %s elements is too large", numel, t.DType)
	}
	nbytes := numel * size
	// stored is the size of the data in the file: the 4- and 2-bit types
	// are packed there, and unpacked to a byte each in memory (ADR 24).
	stored := int64(payload.PackedLen(t.DType, int(numel)))
	if nbytes > d.lim.MaxInitializerBytes-d.constBytes {
		return nil, d.invalid("constant tensors exceed Limits.MaxInitializerBytes (%d)", d.lim.MaxInitializerBytes)
	}

	var sources []string
	if haveRaw {
		sources = append(sources, "raw_data")
	}
	for k := range typed {
		if len(typed[k]) > 0 {
			sources = append(sources, typedFields[k].name)
		}
	}
	switch location {
	case 0:
	case 1:
		if len(sources) > 0 {
			return nil, d.invalid("tensor has external data and %s", sources[0])
		}
		t.Raw, err = d.externalData(ext, stored, t.DType)
		if err != nil {
			return nil, err
		}
		t.Raw = unpacked(t.DType, t.Raw, numel)
		d.constBytes += nbytes
		return t, nil
	default:
		return nil, d.invalid("data_location %d", location)
	}
	if len(sources) > 1 {
		return nil, d.invalid("tensor data given in both %s and %s", sources[0], sources[1])
	}
	switch {
	case haveRaw:
		if int64(len(raw)) != stored {
			return nil, d.invalid("raw_data has %d bytes, shape %v of %s needs %d", len(raw), t.Shape, t.DType, stored)
		}
		t.Raw = unpacked(t.DType, alignedView(raw, int(size)), numel)
	case len(sources) == 1:
		// For the packed types the values are the packed bytes.
		values := numel
		if t.DType.Bits() < 8 {
			values = stored
		}
		if t.Raw, err = d.typedData(&typed, t, values, stored); err != nil {
			return nil, err
		}
		t.Raw = unpacked(t.DType, t.Raw, numel)
	case numel != 0:
		return nil, d.invalid("tensor of shape %v has no data", t.Shape)
	}
	d.constBytes += nbytes
	return t, nil
}

// numElems returns the product of shape, checked against
// Limits.MaxTensorElems without overflowing.
func (d *decoder) numElems(shape []int) (int64, error) {
	for _, v := range shape {
		if v == 0 {
			return 0, nil
		}
	}
	n := int64(1)
	for _, v := range shape {
		if int64(v) > d.lim.MaxTensorElems/n {
			return 0, d.invalid("shape %v has more than Limits.MaxTensorElems (%d) elements", shape, d.lim.MaxTensorElems)
		}
		n *= int64(v)
	}
	return n, nil
}

// typedData converts the values of a typed field into little-endian
// element bytes. It counts the values before allocating.
func (d *decoder) typedData(typed *[tdCount][][]byte, t *model.Tensor, numel, nbytes int64) ([]byte, error) {
	k, per := typedField(t.DType)
	if k < 0 || len(typed[k]) == 0 {
		for j := range typed {
			if len(typed[j]) > 0 {
				return nil, d.invalid("%s given for a %s tensor", typedFields[j].name, t.DType)
			}
		}
		return nil, d.invalid("tensor has no data")
	}
	f := typedFields[k]
	count := int64(0)
	for _, p := range typed[k] {
		c, err := d.countPacked(p, f.wire, f.name)
		if err != nil {
			return nil, err
		}
		count += int64(c)
	}
	if count != numel*int64(per) {
		return nil, d.invalid("%s has %d values, shape %v of %s needs %d", f.name, count, t.Shape, t.DType, numel*int64(per))
	}
	out := payload.AsBytes(make([]uint64, (nbytes+7)/8))[:nbytes]
	if f.wire != wireVarint {
		// Packed fixed32 and fixed64 are little-endian element bytes.
		o := out
		for _, p := range typed[k] {
			o = o[copy(o, p):]
		}
		return out, nil
	}
	size := t.DType.Size()
	i := 0
	for _, p := range typed[k] {
		for len(p) > 0 {
			v, n := protowire.ConsumeVarint(p)
			p = p[n:]
			if t.DType == payload.Bool && v != 0 {
				v = 1
			}
			for j := 0; j < size; j++ {
				out[i+j] = byte(v >> (8 * j))
			}
			i += size
		}
	}
	return out, nil
}

// unpacked returns the numel elements of a 4- or 2-bit type packed in b
// as one byte each, in a new 8-byte aligned buffer; other types' b is
// returned as it is.
func unpacked(dt payload.DType, b []byte, numel int64) []byte {
	if dt.Bits() >= 8 {
		return b
	}
	out := payload.AsBytes(make([]uint64, (numel+7)/8))[:numel]
	payload.Unpack(dt, out, b)
	return out
}

// alignedView returns b if its start is aligned to size, or an 8-byte
// aligned copy.
func alignedView(b []byte, size int) []byte {
	if len(b) == 0 {
		return b[:0:0]
	}
	if uintptr(unsafe.Pointer(&b[0]))%uintptr(size) == 0 {
		return b[:len(b):len(b)]
	}
	return model.AlignedBytes(b)
}

// stringTensor finishes a tensor of element type String from its
// string_data values, in the encoding of payload.EncodeStrings. other
// says the tensor also set raw, typed or external data, which strings
// never use.
func (d *decoder) stringTensor(t *model.Tensor, strs [][]byte, other bool) (*model.Tensor, error) {
	t.DType = payload.String
	if other {
		return nil, d.invalid("a string tensor's data must be in string_data")
	}
	numel, err := d.numElems(t.Shape)
	if err != nil {
		return nil, err
	}
	if int64(len(strs)) != numel {
		return nil, d.invalid("string_data has %d values, shape %v needs %d", len(strs), t.Shape, numel)
	}
	nbytes := 8 * numel
	for _, s := range strs {
		nbytes += int64(len(s))
	}
	if nbytes > d.lim.MaxInitializerBytes-d.constBytes {
		return nil, d.invalid("constant tensors exceed Limits.MaxInitializerBytes (%d)", d.lim.MaxInitializerBytes)
	}
	ss := make([]string, len(strs))
	for i, s := range strs {
		ss[i] = string(s)
	}
	t.Raw = payload.EncodeStrings(ss)
	d.constBytes += nbytes
	return t, nil
}
