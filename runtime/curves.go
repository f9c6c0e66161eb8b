package runtime

import "math"

// CurveKind is the shape of a ResponseCurve.
type CurveKind uint8

// The response curve shapes. In the formulas x is the input, m, k, c and b
// the curve's parameters (see ResponseCurve).
const (
	// CurveLinear: y = m·(x − c) + b.
	CurveLinear CurveKind = iota + 1
	// CurvePolynomial: y = m·(x − c)^k + b. A negative base with a
	// fractional exponent has no real power: the result is 0.
	CurvePolynomial
	// CurveLogistic: y = k / (1 + e^(−m·(x − c))) + b: an S-curve rising
	// (m > 0) or falling (m < 0) around its midpoint c, with steepness |m|
	// and height k.
	CurveLogistic
	// CurveLogit: y = m·ln(u / (1 − u)) + b with u = x − c: the inverse of
	// the logistic, flat in the middle and steep at the ends; u at or
	// beyond 0 or 1 gives −∞ or +∞, clamped to 0 or 1.
	CurveLogit
	// CurveNormal: y = k·e^(−(x − c)² / (2m²)) + b: a bell of height k
	// centred on c with standard deviation m.
	CurveNormal
	// CurveSine: y = k·sin(π·m·(x − c)) + b: m half-waves over [0,1] of
	// amplitude k.
	CurveSine
	// CurveStep: y = m + b for x ≥ c, b for x < c: a threshold at c.
	CurveStep
	// CurveInverse: y = m / (x − c) + b: a hyperbola, high near c and
	// falling off away from it; x = c gives ±∞, clamped.
	CurveInverse
)

// String returns the kind's name, as in "logistic".
func (k CurveKind) String() string {
	switch k {
	case CurveLinear:
		return "linear"
	case CurvePolynomial:
		return "polynomial"
	case CurveLogistic:
		return "logistic"
	case CurveLogit:
		return "logit"
	case CurveNormal:
		return "normal"
	case CurveSine:
		return "sine"
	case CurveStep:
		return "step"
	case CurveInverse:
		return "inverse"
	}
	return "invalid"
}

// ResponseCurve maps an input x, normally in [0,1], to a score in [0,1].
// Its parameters follow the usual utility-AI names: M the slope (or
// steepness, width, frequency, height of a step), K the exponent (or
// height, amplitude), C the shift along x and B the shift along y; see
// the CurveKind constants for each formula. The result is clamped to
// [0,1]; NaN, as input or result, gives 0, and so does an invalid kind. A ResponseCurve is a
// plain value: compare it, copy it, store it.
type ResponseCurve struct {
	Kind       CurveKind
	M, K, C, B float64
}

// LinearCurve returns the curve y = m·x + b.
func LinearCurve(m, b float64) ResponseCurve { return ResponseCurve{Kind: CurveLinear, M: m, B: b} }

// PolynomialCurve returns the curve y = m·(x − c)^k + b.
func PolynomialCurve(m, k, c, b float64) ResponseCurve {
	return ResponseCurve{Kind: CurvePolynomial, M: m, K: k, C: c, B: b}
}

// LogisticCurve returns the curve y = k / (1 + e^(−m·(x − c))) + b.
func LogisticCurve(m, k, c, b float64) ResponseCurve {
	return ResponseCurve{Kind: CurveLogistic, M: m, K: k, C: c, B: b}
}

// LogitCurve returns the curve y = m·ln(u / (1 − u)) + b with u = x − c.
func LogitCurve(m, c, b float64) ResponseCurve {
	return ResponseCurve{Kind: CurveLogit, M: m, C: c, B: b}
}

// NormalCurve returns the curve y = k·e^(−(x − c)² / (2m²)) + b.
func NormalCurve(m, k, c, b float64) ResponseCurve {
	return ResponseCurve{Kind: CurveNormal, M: m, K: k, C: c, B: b}
}

// SineCurve returns the curve y = k·sin(π·m·(x − c)) + b.
func SineCurve(m, k, c, b float64) ResponseCurve {
	return ResponseCurve{Kind: CurveSine, M: m, K: k, C: c, B: b}
}

// StepCurve returns the curve y = m + b for x ≥ c and b below c.
func StepCurve(m, c, b float64) ResponseCurve {
	return ResponseCurve{Kind: CurveStep, M: m, C: c, B: b}
}

// InverseCurve returns the curve y = m / (x − c) + b.
func InverseCurve(m, c, b float64) ResponseCurve {
	return ResponseCurve{Kind: CurveInverse, M: m, C: c, B: b}
}

// Eval returns the curve's value at x, clamped to [0,1]; a NaN input or
// result gives 0. x itself is not clamped.
func (r ResponseCurve) Eval(x float64) float64 {
	if x != x {
		return 0
	}
	var y float64
	u := x - r.C
	switch r.Kind {
	case CurveLinear:
		y = r.M*u + r.B
	case CurvePolynomial:
		y = r.M*math.Pow(u, r.K) + r.B
	case CurveLogistic:
		y = r.K/(1+math.Exp(-r.M*u)) + r.B
	case CurveLogit:
		switch {
		case u <= 0:
			y = r.M*math.Inf(-1) + r.B
		case u >= 1:
			y = r.M*math.Inf(1) + r.B
		default:
			y = r.M*math.Log(u/(1-u)) + r.B
		}
	case CurveNormal:
		y = r.K*math.Exp(-u*u/(2*r.M*r.M)) + r.B
	case CurveSine:
		y = r.K*math.Sin(math.Pi*r.M*u) + r.B
	case CurveStep:
		y = r.B
		if u >= 0 {
			y += r.M
		}
	case CurveInverse:
		y = r.M/u + r.B
	default:
		return 0
	}
	return clamp01(y)
}

// clamp01 clamps v to [0,1], mapping NaN to 0.
func clamp01(v float64) float64 {
	switch {
	case v > 1:
		return 1
	case v > 0:
		return v
	}
	return 0 // v <= 0 or NaN
}

// Normalize maps v from [lo, hi] onto [0,1], clamped; NaN gives 0. When
// hi ≤ lo it is a threshold: 1 for v ≥ hi, else 0.
func Normalize(v, lo, hi float64) float64 {
	if !(hi > lo) {
		if v >= hi {
			return 1
		}
		return 0
	}
	return clamp01((v - lo) / (hi - lo))
}
