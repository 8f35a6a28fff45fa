// Package npy reads and writes NumPy's .npy files (format versions 1.0,
// 2.0 and 3.0) as payload.Dynamic tensors.
//
// Rules:
//   - Every file is untrusted: a malformed, truncated or hostile file gives
//     an error wrapping compute.ErrInvalidArtifact (or ErrUnsupported for a
//     valid file whose element type lintel lacks), never a panic. Nothing
//     is allocated from a size the header declares before the bytes behind
//     it are known to be there.
//   - Read data is returned row-major (C order) in the host's byte order,
//     whatever order and byte order the file used, in a buffer aligned to
//     its element size.
//   - Write emits format version 1.0, little-endian and C order, with the
//     header padded so the data starts on a 64-byte boundary: byte for byte
//     what numpy.save writes for the same C-ordered array.
package npy
