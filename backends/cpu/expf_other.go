//go:build (!amd64 && !arm64) || purego

package cpu

// expSub32 is expSubGo: this build has no assembly.
func expSub32(d, x []float32, m float32) float32 { return expSubGo(d, x, m) }

// softmaxRowWide reports that it ran nothing: this build has no
// one-call Softmax row.
func softmaxRowWide(d, x []float32) (ok, ran bool) { return false, false }

// softmaxRowsWide does nothing in this build: rows go one at a time.
func softmaxRowsWide(d, x []float32, n, rows int) bool { return false }
