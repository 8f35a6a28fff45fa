//go:build !amd64 || purego

package cpu

// dup2 is dup2Go: this build has no assembly.
func dup2[W word](d, s []W) { dup2Go(d, s) }

// dup2RowsMany is dup2RowsManyGo: this build has no assembly.
func dup2RowsMany[W word](d, s []W, rows, w int) { dup2RowsManyGo(d, s, rows, w) }

// interleave2Add is interleave2AddGo: this build has no assembly.
func interleave2Add(d, a, b []float32, bias float32) { interleave2AddGo(d, a, b, bias) }
