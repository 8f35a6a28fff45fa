// Package models embeds the small model files that lintel ships for its
// demo and tests, so they work offline and from a single binary.
//
// Each model comes with its origin and licence in the NOTICE file next to
// it in this folder.
package models

import (
	"embed"
	"io/fs"
)

// PPOCRClassifierFile is the file name of the PP-OCR text-direction
// classifier inside FS.
const PPOCRClassifierFile = "ch_ppocr_mobile_v2.0_cls_infer.onnx"

// PPOCRClassifier holds the bytes of PaddleOCR's PP-OCR mobile v2.0
// text-direction classifier, converted to ONNX. It takes a float32 input
// of shape [N, 3, 48, 192] (a text line resized to height 48, BGR,
// normalised to [-1, 1], zero-padded on the right) and returns [N, 2]:
// softmax probabilities of the labels "0" (upright) and "180" (upside
// down). The slice is shared: callers must not modify it.
//
//go:embed ch_ppocr_mobile_v2.0_cls_infer.onnx
var PPOCRClassifier []byte

// PPOCRClassifierLabels are the classifier's output labels, in output
// order.
var PPOCRClassifierLabels = [2]string{"0", "180"}

//go:embed ch_ppocr_mobile_v2.0_cls_infer.onnx NOTICE
var files embed.FS

// FS returns a read-only file system holding the embedded model files and
// their NOTICE.
func FS() fs.FS { return files }
