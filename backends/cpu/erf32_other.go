//go:build !amd64 || purego

package cpu

// This build has no assembly: erf and Gelu are the Go loops.

func erf32s(d []float32)  { erfGo(d) }
func gelu32s(d []float32) { geluGo(d) }

func geluErf32s(d []float32, c, k, h float32, f int) { geluErfGo(d, c, k, h, f) }
