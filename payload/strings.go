package payload

import (
	"encoding/binary"
	"fmt"
)

// String tensors have no fixed element size, so a Dynamic (and a
// constant's bytes) of element type String holds its n elements in one
// byte slice: n little-endian uint64 end offsets, then the elements'
// bytes one after another. Element i is body[end(i-1):end(i)], where body
// is what follows the 8n-byte header and end(-1) is 0. An empty tensor
// holds no bytes. Payload.Tensor cannot hold strings (Elem is fixed-size
// types only): use a Multi with StringsDynamic and Dynamic.Strings.

// EncodeStrings returns the encoding of ss, its start 8-byte aligned.
func EncodeStrings(ss []string) []byte {
	n := 8 * len(ss)
	for _, s := range ss {
		n += len(s)
	}
	out := AsBytes(make([]uint64, (n+7)/8))[:n]
	body, end := 8*len(ss), 0
	for i, s := range ss {
		copy(out[body+end:], s)
		end += len(s)
		binary.LittleEndian.PutUint64(out[8*i:], uint64(end))
	}
	return out
}

// CheckStrings reports whether data is a valid encoding of n strings.
func CheckStrings(data []byte, n int) error {
	if n < 0 {
		return fmt.Errorf("payload: %d strings", n)
	}
	if n == 0 {
		if len(data) != 0 {
			return fmt.Errorf("payload: an empty string tensor holds %d bytes", len(data))
		}
		return nil
	}
	if n > len(data)/8 {
		return fmt.Errorf("payload: %d bytes cannot hold the offsets of %d strings", len(data), n)
	}
	body := uint64(len(data) - 8*n)
	prev := uint64(0)
	for i := range n {
		end := binary.LittleEndian.Uint64(data[8*i:])
		if end < prev || end > body {
			return fmt.Errorf("payload: string %d ends at %d, after %d and within %d bytes", i, end, prev, body)
		}
		prev = end
	}
	if prev != body {
		return fmt.Errorf("payload: %d strings end at %d, the data holds %d bytes of them", n, prev, body)
	}
	return nil
}

// StringAt returns element i of the n strings data encodes, as a view of
// data. data must have passed CheckStrings.
func StringAt(data []byte, n, i int) []byte {
	start := uint64(0)
	if i > 0 {
		start = binary.LittleEndian.Uint64(data[8*(i-1):])
	}
	end := binary.LittleEndian.Uint64(data[8*i:])
	return data[8*n+int(start) : 8*n+int(end)]
}

// DecodeStrings returns copies of the n strings data encodes.
func DecodeStrings(data []byte, n int) ([]string, error) {
	if err := CheckStrings(data, n); err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		out[i] = string(StringAt(data, n, i))
	}
	return out, nil
}

// StringsDynamic returns a Dynamic of element type String holding ss
// with the given shape.
func StringsDynamic(name string, shape []int, ss []string) Dynamic {
	return Dynamic{Name: name, DType: String, Shape: shape, Data: EncodeStrings(ss)}
}

// Strings returns the elements of a Dynamic of element type String.
func (d Dynamic) Strings() ([]string, error) {
	if d.DType != String {
		return nil, fmt.Errorf("payload: tensor %q holds %s, not string", d.Name, d.DType)
	}
	n := NumElems(d.Shape)
	ss, err := DecodeStrings(d.Data, n)
	if err != nil {
		return nil, fmt.Errorf("payload: tensor %q: %w", d.Name, err)
	}
	return ss, nil
}
