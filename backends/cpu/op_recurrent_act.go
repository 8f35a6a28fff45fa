package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
)

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
// from the vectorised exp (expSub32) in float32: within a few ulps of
// the float64 functions.
func rnnAct32(a model.RNNActivation) func([]float32) {
	var e []float32 // scratch, grown to the longest slice seen
	switch a.Func {
	case model.RNNActSigmoid:
		return func(d []float32) {
			if cap(e) < len(d) {
				e = make([]float32, len(d))
			}
			sigmoidSlice32(d, e[:len(d)])
		}
	case model.RNNActTanh:
		return func(d []float32) {
			if cap(e) < len(d) {
				e = make([]float32, len(d))
			}
			tanhSlice32(d, e[:len(d)])
		}
	}
	return rnnActGeneric[float32](a)
}

// negAbsScaled sets e[i] = -s·|d[i]|, 0 for NaN: the argument of
// expSub32, which wants no NaN.
func negAbsScaled(e, d []float32, s float32) {
	d = d[:len(e)]
	for i, v := range d {
		a := -s * math.Float32frombits(math.Float32bits(v)&^(1<<31))
		if a != a {
			a = 0
		}
		e[i] = a
	}
}

// sigmoidSlice32 sets d[i] to 1/(1+e^-d[i]) from u = e^-|d[i]|: 1/(1+u)
// for d[i] >= 0, u/(1+u) below. e is scratch as long as d.
func sigmoidSlice32(d, e []float32) {
	negAbsScaled(e, d, 1)
	expSub32(e, e, 0)
	e = e[:len(d)]
	for i, v := range d {
		u := e[i]
		s := 1 / (1 + u)
		switch {
		case v >= 0:
			d[i] = s
		case v < 0:
			d[i] = u * s
		}
	}
}

// tanhSlice32 sets d[i] to tanh(d[i]) from u = e^-2|d[i]|: ±(1-u)/(1+u),
// or, where |x| is below 1/4 and 1-u would lose digits, tanh's Taylor
// series to x⁹ (its remainder is below 1e-8 relative there). e is
// scratch as long as d.
func tanhSlice32(d, e []float32) {
	negAbsScaled(e, d, 2)
	expSub32(e, e, 0)
	e = e[:len(d)]
	for i, v := range d {
		if v != v {
			continue
		}
		if v > -0.25 && v < 0.25 {
			x2 := v * v
			d[i] = v * (1 + x2*(-1.0/3+x2*(2.0/15+x2*(-17.0/315+x2*(62.0/2835)))))
			continue
		}
		u := e[i]
		t := (1 - u) / (1 + u)
		if v < 0 {
			t = -t
		}
		d[i] = t
	}
}
