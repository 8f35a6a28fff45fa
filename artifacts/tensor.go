package artifacts

import "github.com/lintel-ml/lintel/model"

// DecodeTensor decodes a serialized ONNX TensorProto, such as the
// input_0.pb and output_0.pb files of ONNX's backend tests; label names it
// in errors. The tensor's Raw bytes may alias data, which the caller must
// not modify afterwards. String tensors and element types lintel lacks
// are refused with errs.Unsupported; malformed tensors, tensors past the
// limits opts set (as for a model) and tensors with external data with
// errs.InvalidArtifact.
func DecodeTensor(data []byte, label string, opts ...Option) (*model.Tensor, error) {
	o := collect(opts)
	if int64(len(data)) > o.limits.MaxFileBytes {
		return nil, (&decoder{label: label}).invalid("%d bytes exceeds Limits.MaxFileBytes (%d)", len(data), o.limits.MaxFileBytes)
	}
	ext := &extResolver{limit: o.limits.MaxFileBytes, refuse: "DecodeTensor reads no external data"}
	d := &decoder{label: label, lim: o.limits, ext: ext}
	t, err := d.decodeTensor(data)
	if err != nil {
		return nil, err
	}
	return t, nil
}
