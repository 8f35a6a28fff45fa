package npy

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// descrTypes maps a dtype description without its byte-order character
// to an element type.
var descrTypes = map[string]payload.DType{
	"f2": payload.Float16, "f4": payload.Float32, "f8": payload.Float64,
	"i1": payload.Int8, "i2": payload.Int16, "i4": payload.Int32, "i8": payload.Int64,
	"u1": payload.Uint8, "u2": payload.Uint16, "u4": payload.Uint32, "u8": payload.Uint64,
	"b1": payload.Bool, "?": payload.Bool,
}

// parseDescr reads a simple dtype description such as "<f4", "|u1" or
// ">i8" and reports its element type and whether its bytes are
// big-endian.
func parseDescr(d string) (dt payload.DType, bigEndian bool, err error) {
	body := d
	order := byte('=')
	if len(d) > 0 {
		switch d[0] {
		case '<', '>', '|', '=':
			order, body = d[0], d[1:]
		}
	}
	dt, ok := descrTypes[body]
	if !ok {
		return payload.Undefined, false, errs.New(errs.Unsupported, "npy: dtype %q is not supported (want one of float16/32/64, int8/16/32/64, uint8/16/32/64, bool)", d)
	}
	if order == '|' && dt.Size() > 1 {
		return payload.Undefined, false, errs.New(errs.InvalidArtifact, "npy: dtype %q: '|' (no byte order) is only valid for 1-byte types", d)
	}
	return dt, order == '>' && dt.Size() > 1, nil
}

// descrOf returns the little-endian description NumPy writes for dt.
func descrOf(dt payload.DType) (string, error) {
	switch dt {
	case payload.Float16:
		return "<f2", nil
	case payload.Float32:
		return "<f4", nil
	case payload.Float64:
		return "<f8", nil
	case payload.Int8:
		return "|i1", nil
	case payload.Int16:
		return "<i2", nil
	case payload.Int32:
		return "<i4", nil
	case payload.Int64:
		return "<i8", nil
	case payload.Uint8:
		return "|u1", nil
	case payload.Uint16:
		return "<u2", nil
	case payload.Uint32:
		return "<u4", nil
	case payload.Uint64:
		return "<u8", nil
	case payload.Bool:
		return "|b1", nil
	}
	return "", errs.New(errs.Unsupported, "npy: element type %s has no NumPy dtype", dt)
}
