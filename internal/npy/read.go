package npy

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// magic starts every .npy file.
const magic = "\x93NUMPY"

const maxInt = int(^uint(0) >> 1)

// DefaultMaxBytes is the file size Read and ReadFile accept when given 0.
const DefaultMaxBytes = 4 << 30

// Decode parses a whole .npy file held in b. The returned tensor's Data is
// a fresh, aligned copy in C order and host byte order; it does not alias
// b. Its Name is empty.
func Decode(b []byte) (payload.Dynamic, error) {
	var none payload.Dynamic
	if len(b) < len(magic)+2 || string(b[:len(magic)]) != magic {
		return none, errs.New(errs.InvalidArtifact, "npy: not a .npy file (magic string missing)")
	}
	major, minor := b[6], b[7]
	rest := b[8:]
	var hlen int
	switch {
	case major == 1 && minor == 0:
		if len(rest) < 2 {
			return none, errs.New(errs.InvalidArtifact, "npy: truncated header length")
		}
		hlen = int(rest[0]) | int(rest[1])<<8
		rest = rest[2:]
	case (major == 2 || major == 3) && minor == 0:
		if len(rest) < 4 {
			return none, errs.New(errs.InvalidArtifact, "npy: truncated header length")
		}
		h := uint32(rest[0]) | uint32(rest[1])<<8 | uint32(rest[2])<<16 | uint32(rest[3])<<24
		if uint64(h) > uint64(len(rest)-4) {
			return none, errs.New(errs.InvalidArtifact, "npy: header of %d bytes, the file holds %d after the length", h, len(rest)-4)
		}
		hlen = int(h)
		rest = rest[4:]
	default:
		return none, errs.New(errs.Unsupported, "npy: format version %d.%d (supported: 1.0, 2.0, 3.0)", major, minor)
	}
	if hlen > len(rest) {
		return none, errs.New(errs.InvalidArtifact, "npy: header of %d bytes, the file holds %d after the length", hlen, len(rest))
	}
	text := rest[:hlen]
	if major < 3 {
		for i, c := range text {
			if c >= 0x80 {
				return none, errs.New(errs.InvalidArtifact, "npy: byte %d of a version %d.0 header is not ASCII", i, major)
			}
		}
	}
	h, err := parseHeader(string(text))
	if err != nil {
		return none, err
	}
	dt, big, err := parseDescr(h.descr)
	if err != nil {
		return none, err
	}
	n := payload.NumElems(h.shape)
	size := dt.Size()
	data := rest[hlen:]
	if n < 0 || n > maxInt/size {
		return none, errs.New(errs.InvalidArtifact, "npy: shape %v of %s needs more bytes than memory can hold", h.shape, dt)
	}
	if len(data) != n*size {
		return none, errs.New(errs.InvalidArtifact, "npy: shape %v of %s needs %d data bytes, the file holds %d", h.shape, dt, n*size, len(data))
	}
	out := alignedBytes(len(data))
	if h.fortran && len(h.shape) > 1 {
		fromFortran(out, data, h.shape, size)
	} else {
		copy(out, data)
	}
	if big {
		swapBytes(out, size)
	}
	if dt == payload.Bool {
		for i, c := range out {
			if c != 0 {
				out[i] = 1
			}
		}
	}
	return payload.Dynamic{DType: dt, Shape: h.shape, Data: out}, nil
}

// Read reads a whole .npy file from r. It refuses files larger than
// maxBytes (DefaultMaxBytes when 0) with compute.ErrResourceUnavailable.
func Read(r io.Reader, maxBytes int64) (payload.Dynamic, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(r, maxBytes+1)); err != nil {
		return payload.Dynamic{}, errs.Wrap(errs.InvalidArtifact, err, "npy: reading")
	}
	if int64(buf.Len()) > maxBytes {
		return payload.Dynamic{}, errs.New(errs.ResourceUnavailable, "npy: file is larger than %d bytes", maxBytes)
	}
	return Decode(buf.Bytes())
}

// ReadFile reads the .npy file at path; see Read. Errors name the path.
func ReadFile(path string, maxBytes int64) (payload.Dynamic, error) {
	f, err := os.Open(path)
	if err != nil {
		return payload.Dynamic{}, errs.Wrap(errs.InvalidArtifact, err, "npy: %s", path)
	}
	defer f.Close()
	d, err := Read(f, maxBytes)
	if err != nil {
		var e *errs.Error
		if errors.As(err, &e) {
			return d, &errs.Error{Kind: e.Kind, Msg: path + ": " + e.Msg, Cause: e.Cause}
		}
		return d, err
	}
	return d, nil
}

// alignedBytes returns n zeroed bytes whose start is 8-byte aligned.
func alignedBytes(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	return payload.AsBytes(make([]uint64, (n+7)/8))[:n]
}

// swapBytes reverses the bytes of every size-byte element of b.
func swapBytes(b []byte, size int) {
	for i := 0; i+size <= len(b); i += size {
		e := b[i : i+size]
		for l, r := 0, size-1; l < r; l, r = l+1, r-1 {
			e[l], e[r] = e[r], e[l]
		}
	}
}

// fromFortran copies the column-major elements of src, of the given shape
// and element size, into dst in row-major order.
func fromFortran(dst, src []byte, shape []int, size int) {
	rank := len(shape)
	// stride[k] is the distance, in elements, between neighbours along
	// axis k in the column-major source.
	stride := make([]int, rank)
	s := 1
	for k := range shape {
		stride[k] = s
		s *= shape[k]
	}
	idx := make([]int, rank)
	off := 0
	for o := 0; o*size < len(dst); o++ {
		copy(dst[o*size:(o+1)*size], src[off*size:(off+1)*size])
		for k := rank - 1; k >= 0; k-- {
			idx[k]++
			off += stride[k]
			if idx[k] < shape[k] {
				break
			}
			off -= idx[k] * stride[k]
			idx[k] = 0
		}
	}
}
