// Package textimg renders single lines of text to images with the Go fonts,
// for demos and tests of text-line models such as OCR direction
// classifiers, and holds the small image operations those models' inputs
// need: rotation by 180° and OpenCV-compatible bilinear resizing.
//
// Rendering is deterministic: the same text and Style give the same pixels
// on every platform, since the fonts are embedded and rasterised in pure Go.
package textimg
