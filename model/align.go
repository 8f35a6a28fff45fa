package model

import (
	"unsafe"

	"github.com/x448/float16"
)

func aligned8(b []byte) bool { return uintptr(unsafe.Pointer(&b[0]))%8 == 0 }

func f16to32(h uint16) float32 { return float16.Frombits(h).Float32() }
