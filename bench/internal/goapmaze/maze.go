// Package goapmaze is the "maze" planning benchmark of kelindar/goap (its
// BenchmarkPlan/maze) as a rolegen role: 35 places joined by 42 one-way
// moves, from A to Z. The shortest way is the 25 moves down the spine
// A, B, …, Z; the detours through X1–X3, Y1–Y3 and Z1–Z2 are each one move
// longer than the step they bypass, and Z3 is a dead end.
//
// In kelindar/goap a move P->Q requires the fact P (P = 100) and sets
// P = 0 and Q = 100, and a fact never set is absent, which is not the same
// state as a fact set to 0. So a state there is not only where the walker
// is but also every place it has left: two ways to the same place are two
// states. Each place here is a Mark with the same three values — Unseen
// (absent), Here (100) and Gone (0) — so the search space is the same
// one, state for state.
package goapmaze

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Mark is what the walker knows of a place.
type Mark int8

// Marks.
const (
	// Unseen: the walker has not been there.
	Unseen Mark = iota
	// Here: the walker is there.
	Here
	// Gone: the walker was there and has left.
	Gone
)

// Walker walks the maze.
type Walker struct {
	A  Mark `plan:"state"`
	B  Mark `plan:"state"`
	C  Mark `plan:"state"`
	D  Mark `plan:"state"`
	E  Mark `plan:"state"`
	F  Mark `plan:"state"`
	G  Mark `plan:"state"`
	H  Mark `plan:"state"`
	I  Mark `plan:"state"`
	J  Mark `plan:"state"`
	K  Mark `plan:"state"`
	L  Mark `plan:"state"`
	M  Mark `plan:"state"`
	N  Mark `plan:"state"`
	O  Mark `plan:"state"`
	P  Mark `plan:"state"`
	Q  Mark `plan:"state"`
	R  Mark `plan:"state"`
	S  Mark `plan:"state"`
	T  Mark `plan:"state"`
	U  Mark `plan:"state"`
	V  Mark `plan:"state"`
	W  Mark `plan:"state"`
	X  Mark `plan:"state"`
	Y  Mark `plan:"state"`
	Z  Mark `plan:"state"`
	X1 Mark `plan:"state"`
	X2 Mark `plan:"state"`
	X3 Mark `plan:"state"`
	Y1 Mark `plan:"state"`
	Y2 Mark `plan:"state"`
	Y3 Mark `plan:"state"`
	Z1 Mark `plan:"state"`
	Z2 Mark `plan:"state"`
	Z3 Mark `plan:"state"`

	// Out means the walker is at Z.
	Out struct{} `plan:"goal=Z == Here; priority=high"`
}

// AToB moves from A to B.
//
//plan:action pre="A == Here" post="A = Gone, B = Here"
func (w *Walker) AToB() { w.A, w.B = Gone, Here }

// BToC moves from B to C.
//
//plan:action pre="B == Here" post="B = Gone, C = Here"
func (w *Walker) BToC() { w.B, w.C = Gone, Here }

// CToD moves from C to D.
//
//plan:action pre="C == Here" post="C = Gone, D = Here"
func (w *Walker) CToD() { w.C, w.D = Gone, Here }

// DToE moves from D to E.
//
//plan:action pre="D == Here" post="D = Gone, E = Here"
func (w *Walker) DToE() { w.D, w.E = Gone, Here }

// EToF moves from E to F.
//
//plan:action pre="E == Here" post="E = Gone, F = Here"
func (w *Walker) EToF() { w.E, w.F = Gone, Here }

// FToG moves from F to G.
//
//plan:action pre="F == Here" post="F = Gone, G = Here"
func (w *Walker) FToG() { w.F, w.G = Gone, Here }

// GToH moves from G to H.
//
//plan:action pre="G == Here" post="G = Gone, H = Here"
func (w *Walker) GToH() { w.G, w.H = Gone, Here }

// HToI moves from H to I.
//
//plan:action pre="H == Here" post="H = Gone, I = Here"
func (w *Walker) HToI() { w.H, w.I = Gone, Here }

// IToJ moves from I to J.
//
//plan:action pre="I == Here" post="I = Gone, J = Here"
func (w *Walker) IToJ() { w.I, w.J = Gone, Here }

// CToX1 moves from C to X1.
//
//plan:action pre="C == Here" post="C = Gone, X1 = Here"
func (w *Walker) CToX1() { w.C, w.X1 = Gone, Here }

// EToX2 moves from E to X2.
//
//plan:action pre="E == Here" post="E = Gone, X2 = Here"
func (w *Walker) EToX2() { w.E, w.X2 = Gone, Here }

// GToX3 moves from G to X3.
//
//plan:action pre="G == Here" post="G = Gone, X3 = Here"
func (w *Walker) GToX3() { w.G, w.X3 = Gone, Here }

// X1ToD moves from X1 to D.
//
//plan:action pre="X1 == Here" post="X1 = Gone, D = Here"
func (w *Walker) X1ToD() { w.X1, w.D = Gone, Here }

// X2ToF moves from X2 to F.
//
//plan:action pre="X2 == Here" post="X2 = Gone, F = Here"
func (w *Walker) X2ToF() { w.X2, w.F = Gone, Here }

// X3ToH moves from X3 to H.
//
//plan:action pre="X3 == Here" post="X3 = Gone, H = Here"
func (w *Walker) X3ToH() { w.X3, w.H = Gone, Here }

// BToY1 moves from B to Y1.
//
//plan:action pre="B == Here" post="B = Gone, Y1 = Here"
func (w *Walker) BToY1() { w.B, w.Y1 = Gone, Here }

// DToY2 moves from D to Y2.
//
//plan:action pre="D == Here" post="D = Gone, Y2 = Here"
func (w *Walker) DToY2() { w.D, w.Y2 = Gone, Here }

// FToY3 moves from F to Y3.
//
//plan:action pre="F == Here" post="F = Gone, Y3 = Here"
func (w *Walker) FToY3() { w.F, w.Y3 = Gone, Here }

// Y1ToC moves from Y1 to C.
//
//plan:action pre="Y1 == Here" post="Y1 = Gone, C = Here"
func (w *Walker) Y1ToC() { w.Y1, w.C = Gone, Here }

// Y2ToE moves from Y2 to E.
//
//plan:action pre="Y2 == Here" post="Y2 = Gone, E = Here"
func (w *Walker) Y2ToE() { w.Y2, w.E = Gone, Here }

// Y3ToG moves from Y3 to G.
//
//plan:action pre="Y3 == Here" post="Y3 = Gone, G = Here"
func (w *Walker) Y3ToG() { w.Y3, w.G = Gone, Here }

// JToK moves from J to K.
//
//plan:action pre="J == Here" post="J = Gone, K = Here"
func (w *Walker) JToK() { w.J, w.K = Gone, Here }

// KToL moves from K to L.
//
//plan:action pre="K == Here" post="K = Gone, L = Here"
func (w *Walker) KToL() { w.K, w.L = Gone, Here }

// LToM moves from L to M.
//
//plan:action pre="L == Here" post="L = Gone, M = Here"
func (w *Walker) LToM() { w.L, w.M = Gone, Here }

// MToN moves from M to N.
//
//plan:action pre="M == Here" post="M = Gone, N = Here"
func (w *Walker) MToN() { w.M, w.N = Gone, Here }

// NToO moves from N to O.
//
//plan:action pre="N == Here" post="N = Gone, O = Here"
func (w *Walker) NToO() { w.N, w.O = Gone, Here }

// OToP moves from O to P.
//
//plan:action pre="O == Here" post="O = Gone, P = Here"
func (w *Walker) OToP() { w.O, w.P = Gone, Here }

// PToQ moves from P to Q.
//
//plan:action pre="P == Here" post="P = Gone, Q = Here"
func (w *Walker) PToQ() { w.P, w.Q = Gone, Here }

// QToR moves from Q to R.
//
//plan:action pre="Q == Here" post="Q = Gone, R = Here"
func (w *Walker) QToR() { w.Q, w.R = Gone, Here }

// RToS moves from R to S.
//
//plan:action pre="R == Here" post="R = Gone, S = Here"
func (w *Walker) RToS() { w.R, w.S = Gone, Here }

// SToT moves from S to T.
//
//plan:action pre="S == Here" post="S = Gone, T = Here"
func (w *Walker) SToT() { w.S, w.T = Gone, Here }

// TToU moves from T to U.
//
//plan:action pre="T == Here" post="T = Gone, U = Here"
func (w *Walker) TToU() { w.T, w.U = Gone, Here }

// UToV moves from U to V.
//
//plan:action pre="U == Here" post="U = Gone, V = Here"
func (w *Walker) UToV() { w.U, w.V = Gone, Here }

// VToW moves from V to W.
//
//plan:action pre="V == Here" post="V = Gone, W = Here"
func (w *Walker) VToW() { w.V, w.W = Gone, Here }

// WToX moves from W to X.
//
//plan:action pre="W == Here" post="W = Gone, X = Here"
func (w *Walker) WToX() { w.W, w.X = Gone, Here }

// XToY moves from X to Y.
//
//plan:action pre="X == Here" post="X = Gone, Y = Here"
func (w *Walker) XToY() { w.X, w.Y = Gone, Here }

// YToZ moves from Y to Z.
//
//plan:action pre="Y == Here" post="Y = Gone, Z = Here"
func (w *Walker) YToZ() { w.Y, w.Z = Gone, Here }

// UToZ1 moves from U to Z1.
//
//plan:action pre="U == Here" post="U = Gone, Z1 = Here"
func (w *Walker) UToZ1() { w.U, w.Z1 = Gone, Here }

// WToZ2 moves from W to Z2.
//
//plan:action pre="W == Here" post="W = Gone, Z2 = Here"
func (w *Walker) WToZ2() { w.W, w.Z2 = Gone, Here }

// Z1ToV moves from Z1 to V.
//
//plan:action pre="Z1 == Here" post="Z1 = Gone, V = Here"
func (w *Walker) Z1ToV() { w.Z1, w.V = Gone, Here }

// Z2ToX moves from Z2 to X.
//
//plan:action pre="Z2 == Here" post="Z2 = Gone, X = Here"
func (w *Walker) Z2ToX() { w.Z2, w.X = Gone, Here }

// AToZ3 moves from A to Z3.
//
//plan:action pre="A == Here" post="A = Gone, Z3 = Here"
func (w *Walker) AToZ3() { w.A, w.Z3 = Gone, Here }

// Start is the benchmark's start state: the walker at A, nowhere else yet.
var Start = WalkerState{A: Here}
