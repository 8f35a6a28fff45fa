package main

import (
	"image/color"

	"github.com/lintel-ml/lintel/internal/textimg"
)

// demoLine is one text line the demo renders, and how.
type demoLine struct {
	text  string
	style textimg.Style
}

var (
	inkBlack = color.RGBA{R: 0x1c, G: 0x1c, B: 0x1c, A: 0xff}
	inkBlue  = color.RGBA{R: 0x1a, G: 0x2a, B: 0x5c, A: 0xff}
	inkBrown = color.RGBA{R: 0x3a, G: 0x26, B: 0x1a, A: 0xff}
	paperW   = color.RGBA{R: 0xfa, G: 0xfa, B: 0xf7, A: 0xff}
	paperY   = color.RGBA{R: 0xf3, G: 0xee, B: 0xdc, A: 0xff}
	paperG   = color.RGBA{R: 0xe8, G: 0xea, B: 0xec, A: 0xff}
)

// demoLines are the text lines the demo classifies, upright and turned by
// 180°: English words and numbers, in several faces, sizes and colours,
// short and long (lines wider than 4:1 are squeezed into the
// classifier's 192-pixel width, as PaddleOCR does).
var demoLines = []demoLine{
	{"Hello, world 2026", textimg.Style{Face: textimg.Regular, Size: 32, Ink: inkBlack, Paper: paperW, PadX: -1, PadY: -1}},
	{"lintel runs ONNX in Go", textimg.Style{Face: textimg.Bold, Size: 28, Ink: inkBlue, Paper: paperW, PadX: -1, PadY: -1}},
	{"Invoice No. 48213", textimg.Style{Face: textimg.Medium, Size: 30, Ink: inkBlack, Paper: paperY, PadX: -1, PadY: -1}},
	{"Total due: $1,284.50", textimg.Style{Face: textimg.Mono, Size: 24, Ink: inkBrown, Paper: paperW, PadX: -1, PadY: -1}},
	{"Meet me at 10:45 by gate B7", textimg.Style{Face: textimg.Italic, Size: 26, Ink: inkBlue, Paper: paperG, PadX: -1, PadY: -1}},
	{"Order 2026-0317 shipped", textimg.Style{Face: textimg.Regular, Size: 40, Ink: inkBlack, Paper: paperY, PadX: -1, PadY: -1}},
	{"Room 204", textimg.Style{Face: textimg.Bold, Size: 36, Ink: inkBlack, Paper: paperW, PadX: -1, PadY: -1}},
	{"The quick brown fox jumps", textimg.Style{Face: textimg.Regular, Size: 26, Ink: inkBrown, Paper: paperW, PadX: -1, PadY: -1}},
}
