//go:build (!amd64 && !arm64) || purego

package cpu

// This build has no assembly: the activations are the Go loops.

func actRelu32(d []float32)                      { actReluGo(d) }
func actClip32(d []float32, lo, hi float32)      { actClipGo(d, lo, hi) }
func actHardSigmoid32(d []float32, a, b float32) { actHardSigmoidGo(d, a, b) }
func actHardSwish32(d []float32)                 { actHardSwishGo(d) }
func actHardSwishDiv6F32(d []float32)            { actHardSwishDiv6Go(d) }

func addVec32(d, b []float32)           { addVecGo(d, b) }
func addConst32(d []float32, c float32) { addConstGo(d, c) }

func addVecRelu32(d, b []float32) {
	addVecGo(d, b)
	actReluGo(d)
}

func addConstRelu32(d []float32, c float32) {
	addConstGo(d, c)
	actReluGo(d)
}

func sum32(x []float32) float64 { return sumGo(x) }

func norm32(d, x, s, b []float32, mu, den float32) { normGo(d, x, s, b, mu, den) }

// reluTo32 sets d[i] = actRelu32's value of x[i]; d may be x.
func reluTo32(d, x []float32) { reluToBlocks(d, x) }

// clipTo32 sets d[i] = actClip32's value of x[i]; d may be x.
func clipTo32(d, x []float32, lo, hi float32) { clipToBlocks(d, x, lo, hi) }
