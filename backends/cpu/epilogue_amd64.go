//go:build amd64 && !purego

package cpu

// actRelu32 is actReluGo; AVX assembly lands here later.
func actRelu32(d []float32) { actReluGo(d) }

// actHardSwishDiv6F32 is actHardSwishDiv6Go.
func actHardSwishDiv6F32(d []float32) { actHardSwishDiv6Go(d) }
