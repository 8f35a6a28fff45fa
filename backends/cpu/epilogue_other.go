//go:build !amd64 || purego

package cpu

// actRelu32 is actReluGo: this build has no assembly.
func actRelu32(d []float32) { actReluGo(d) }

// actHardSwishDiv6F32 is actHardSwishDiv6Go: this build has no assembly.
func actHardSwishDiv6F32(d []float32) { actHardSwishDiv6Go(d) }
