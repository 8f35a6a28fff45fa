//go:build (!amd64 && !arm64) || purego

package cpu

// expSub32 is expSubGo: this build has no assembly.
func expSub32(d, x []float32, m float32) float32 { return expSubGo(d, x, m) }
