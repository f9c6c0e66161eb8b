package check

import (
	"fmt"
	"go/constant"
	"go/token"
	"math"
	"strconv"
	"strings"

	"github.com/rolegen/rolegen/exprlang"
	"github.com/rolegen/rolegen/internal/annot"
	"github.com/rolegen/rolegen/internal/model"
)

// cost checks the cost of action a (of origin o) that is not a number: an
// expression of the state, f's value. A constant expression is folded
// into a number, which must be positive as a number must; any other
// becomes a.CostExpr, with a.Cost the least positive value interval
// arithmetic proves for it where a's precondition holds (0 when none), on
// which the planners' estimates rely. action names a for messages, decl
// is its method's name.
func (b *roleBuild) cost(o *origin, a *model.Action, f annot.Field, action string, decl token.Pos) {
	what := "cost of " + action
	e, errs := exprlang.Cost(f.Value.S, &originScope{b: b, o: o, at: decl})
	if len(errs) > 0 {
		b.reportExpr(o, f.Value, errs, what, decl)
		b.ok = false
		return
	}
	src := f.Value.S[e.Pos():e.End()]
	fail := func(format string, args ...any) {
		b.reportExpr(o, f.Value, exprlang.ErrorList{{Offset: e.Pos(), End: e.End(), Msg: fmt.Sprintf(format, args...)}}, what, decl)
		b.ok = false
	}
	if v := e.Value(); v != nil {
		n, ok := constFloat64(v, e.Type().Kind)
		switch {
		case !ok:
			fail("cost %s overflows float64", src)
		case !(n > 0):
			fail("cost must be greater than 0, not %s (%s)", formatFloat(n), src)
		default:
			a.Cost = n
		}
		return
	}
	var assume []exprlang.Expr
	if a.Pre != nil {
		assume = exprlang.Conjuncts(a.Pre)
	}
	r := exprlang.Bounds(e, assume)
	if r.Max <= 0 {
		where := ""
		if a.Pre != nil {
			where = " where the precondition holds"
		}
		fail("cost %s is never greater than 0%s (it is at most %s)", src, where, formatFloat(r.Max))
		return
	}
	a.CostExpr, a.CostText, a.CostReads = e, strings.TrimSpace(f.Value.S), exprlang.Reads(e)
	a.Cost = r.Least
}

// constFloat64 is float64(x) for a constant x of kind k, as Go converts
// it: rounded to the nearest float64 (through float32 for a float32
// constant); false when it overflows.
func constFloat64(v constant.Value, k exprlang.Kind) (float64, bool) {
	var n float64
	if k == exprlang.Float32 {
		f, _ := constant.Float32Val(constant.ToFloat(v))
		n = float64(f)
	} else {
		n, _ = constant.Float64Val(constant.ToFloat(v))
	}
	return n, !math.IsInf(n, 0)
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
