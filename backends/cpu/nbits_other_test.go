//go:build !amd64 || purego

package cpu

// nbitsWidths lists no widths: this build has no nbitsCols assembly.
func nbitsWidths() []bool { return nil }

// nbitsUse does nothing in this build.
func nbitsUse(bool) func() { return func() {} }
