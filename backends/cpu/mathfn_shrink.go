package cpu

import "math"

// fnShrink is x+bias below -lambd, x-bias above lambd, and 0 between.
func fnShrink(x, lambd, bias float64) float64 {
	switch {
	case x < -lambd:
		return x + bias
	case x > lambd:
		return x - bias
	}
	return 0
}

// fnSwish is x·sigmoid(alpha·x).
func fnSwish(x, alpha, _ float64) float64 {
	return x / (1 + math.Exp(-alpha*x))
}
