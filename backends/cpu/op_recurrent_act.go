package cpu

import "github.com/lintel-ml/lintel/model"

// rnnActFuncs returns the functions of a recurrent node's activations,
// per direction, made by mk.
func rnnActFuncs[E float32 | float64](a *model.RecurrentAttrs, mk func(model.RNNActivation) func([]E)) [][]func([]E) {
	dirs := a.Direction.Dirs()
	out := make([][]func([]E), dirs)
	for d := range dirs {
		for _, act := range a.Activations[d*a.ActsPerDir : (d+1)*a.ActsPerDir] {
			out[d] = append(out[d], mk(act))
		}
	}
	return out
}

// rnnActGeneric applies an activation element by element in float64.
func rnnActGeneric[E float32 | float64](a model.RNNActivation) func([]E) {
	if a.Func == model.RNNActRelu {
		return func(d []E) {
			for i, v := range d {
				d[i] = max(v, 0)
			}
		}
	}
	return func(d []E) {
		for i, v := range d {
			d[i] = E(a.Eval(float64(v)))
		}
	}
}

// rnnAct32 is rnnActGeneric for float32, with Sigmoid and Tanh computed
// as ONNX Runtime's LSTM does (MLAS's rational approximations), in
// float32 arithmetic.
func rnnAct32(a model.RNNActivation) func([]float32) {
	switch a.Func {
	case model.RNNActSigmoid:
		return func(d []float32) {
			for i, v := range d {
				d[i] = sigmoid32(v)
			}
		}
	case model.RNNActTanh:
		return func(d []float32) {
			for i, v := range d {
				d[i] = tanh32(v)
			}
		}
	}
	return rnnActGeneric[float32](a)
}

// tanh32 is tanh as ONNX Runtime computes float32 on x86 (MLAS): a
// rational approximation on [-9, 9], evaluated with fused multiply-adds.
// Its error is within a few float32 ulps of tanh.
func tanh32(v float32) float32 {
	const (
		a13 = float32(-2.76076847742355e-16)
		a11 = float32(2.00018790482477e-13)
		a9  = float32(-8.60467152213735e-11)
		a7  = float32(5.12229709037114e-08)
		a5  = float32(1.48572235717979e-05)
		a3  = float32(6.37261928875436e-04)
		a1  = float32(4.89352455891786e-03)
		b6  = float32(1.19825839466702e-06)
		b4  = float32(1.18534705686654e-04)
		b2  = float32(2.26843463243900e-03)
		b0  = float32(4.89352518554385e-03)
	)
	x := min(max(v, -9), 9)
	if v != v {
		return v
	}
	x2 := x * x
	p := fma32(x2, a13, a11)
	p = fma32(p, x2, a9)
	p = fma32(p, x2, a7)
	p = fma32(p, x2, a5)
	p = fma32(p, x2, a3)
	p = fma32(p, x2, a1)
	p *= x
	q := fma32(x2, b6, b4)
	q = fma32(q, x2, b2)
	q = fma32(q, x2, b0)
	return min(max(p/q, -1), 1)
}
