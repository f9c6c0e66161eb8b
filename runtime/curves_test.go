package runtime_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolegen/rolegen/runtime"
)

func TestResponseCurves(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name  string
		curve runtime.ResponseCurve
		x     []float64
		want  []float64
	}{
		{
			// y = 2x − 0.5: below 0 and above 1 clamp.
			name: "linear", curve: runtime.LinearCurve(2, -0.5),
			x:    []float64{0, 0.25, 0.5, 0.75, 1},
			want: []float64{0, 0, 0.5, 1, 1},
		},
		{
			// y = x²
			name: "quadratic", curve: runtime.PolynomialCurve(1, 2, 0, 0),
			x:    []float64{0, 0.5, 0.9, 1},
			want: []float64{0, 0.25, 0.81, 1},
		},
		{
			// y = 1 − x³
			name: "falling cubic", curve: runtime.PolynomialCurve(-1, 3, 0, 1),
			x:    []float64{0, 0.5, 1},
			want: []float64{1, 0.875, 0},
		},
		{
			// y = (x − 0.5)^0.5: no real root left of 0.5 (NaN → 0).
			name: "square root shifted", curve: runtime.PolynomialCurve(1, 0.5, 0.5, 0),
			x:    []float64{0.25, 0.5, 0.75},
			want: []float64{0, 0, 0.5},
		},
		{
			// y = 1 / (1 + e^(−10(x − 0.5)))
			name: "logistic", curve: runtime.LogisticCurve(10, 1, 0.5, 0),
			x:    []float64{0, 0.5, 1},
			want: []float64{1 / (1 + math.Exp(5)), 0.5, 1 / (1 + math.Exp(-5))}, // 0.00669…, 0.5, 0.99331…
		},
		{
			// y = 0.1·ln(x / (1 − x)) + 0.5; the ends are ∓∞, clamped.
			name: "logit", curve: runtime.LogitCurve(0.1, 0, 0.5),
			x:    []float64{0, 0.1, 0.5, 0.9, 1},
			want: []float64{0, 0.5 - 0.1*math.Log(9), 0.5, 0.5 + 0.1*math.Log(9), 1}, // 0.28028, 0.5, 0.71972
		},
		{
			// y = e^(−(x − 0.5)² / (2·0.1²))
			name: "normal", curve: runtime.NormalCurve(0.1, 1, 0.5, 0),
			x:    []float64{0.3, 0.5, 0.6},
			want: []float64{math.Exp(-2), 1, math.Exp(-0.5)}, // 0.13534, 1, 0.60653
		},
		{
			// y = sin(πx)
			name: "sine", curve: runtime.SineCurve(1, 1, 0, 0),
			x:    []float64{0, 0.25, 0.5, 1},
			want: []float64{0, math.Sqrt2 / 2, 1, 0},
		},
		{
			// y = sin(2πx): the negative half clamps to 0.
			name: "full sine", curve: runtime.SineCurve(2, 1, 0, 0),
			x:    []float64{0.25, 0.75},
			want: []float64{1, 0},
		},
		{
			// y = 0.6 + 0.2 from 0.3 on, 0.2 below.
			name: "step", curve: runtime.StepCurve(0.6, 0.3, 0.2),
			x:    []float64{0, 0.29, 0.3, 1},
			want: []float64{0.2, 0.2, 0.8, 0.8},
		},
		{
			// y = 0.1 / x: 1/0 = +∞ clamps to 1.
			name: "inverse", curve: runtime.InverseCurve(0.1, 0, 0),
			x:    []float64{0, 0.1, 0.5, 1},
			want: []float64{1, 1, 0.2, 0.1},
		},
		{
			// 0 / 0 is NaN → 0.
			name: "inverse of zero", curve: runtime.InverseCurve(0, 0, 0),
			x:    []float64{0},
			want: []float64{0},
		},
		{
			name: "invalid kind", curve: runtime.ResponseCurve{M: 1, B: 1},
			x:    []float64{0.5},
			want: []float64{0},
		},
	}
	for _, c := range cases {
		for i, x := range c.x {
			assert.InDelta(t, c.want[i], c.curve.Eval(x), 1e-12, "%s at %v", c.name, x)
		}
		assert.Zero(t, c.curve.Eval(nan), "%s at NaN", c.name)
	}
}

func TestResponseCurveOutputStaysInRange(t *testing.T) {
	curves := []runtime.ResponseCurve{
		runtime.LinearCurve(5, -2),
		runtime.PolynomialCurve(3, 4, 0.2, -0.1),
		runtime.LogisticCurve(-20, 3, 0.4, -1),
		runtime.LogitCurve(-0.5, 0.1, 0.5),
		runtime.NormalCurve(0, 2, 0.5, 0),
		runtime.SineCurve(7, 5, 0.1, 0.5),
		runtime.StepCurve(-3, 0.5, 2),
		runtime.InverseCurve(-1, 0.5, 0.5),
	}
	for _, c := range curves {
		for x := -1.0; x <= 2; x += 1.0 / 64 {
			y := c.Eval(x)
			if !(y >= 0 && y <= 1) {
				t.Fatalf("%v at %v = %v", c, x, y)
			}
		}
	}
}

func TestCurveKindString(t *testing.T) {
	assert.Equal(t, "logistic", runtime.CurveLogistic.String())
	assert.Equal(t, "inverse", runtime.CurveInverse.String())
	assert.Equal(t, "invalid", runtime.CurveKind(0).String())
}

func TestNormalize(t *testing.T) {
	assert.Equal(t, 0.5, runtime.Normalize(50, 0, 100))
	assert.Equal(t, 0.0, runtime.Normalize(-3, 0, 100))
	assert.Equal(t, 1.0, runtime.Normalize(300, 0, 100))
	assert.Equal(t, 0.25, runtime.Normalize(15, 10, 30))
	assert.Equal(t, 0.0, runtime.Normalize(math.NaN(), 0, 1))
	// hi ≤ lo: a threshold at hi.
	assert.Equal(t, 1.0, runtime.Normalize(5, 5, 5))
	assert.Equal(t, 0.0, runtime.Normalize(4, 5, 5))
}
