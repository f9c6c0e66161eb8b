// Package randmeasure measures the backward chainer on the random roles of
// ../randgen (the families randroles and randclock of ../synthetic)
// against A*, the reference for what can be planned and at what cost.
package randmeasure

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rolegen/rolegen/runtime"
)

// MaxSteps is the longest optimal plan a start may need to count.
const MaxSteps = 8

// Role is a random role, whatever its state type.
type Role interface {
	Name() string
	// Measure plans starts random starts (each field 0 to 4) of the role's
	// goal with the backward chainer, counting in f those that A* solves
	// within MaxSteps steps. A plan that does not replay is an error.
	Measure(f *Figures, r *rand.Rand, starts int, opts ...runtime.BackwardOption) error
}

// New returns the role of domain d, whose states state makes from the
// values of V0..V3.
func New[S comparable](name string, d *runtime.Domain[S], state func(v [4]int) S) Role {
	return &role[S]{name: name, d: d, state: state}
}

type role[S comparable] struct {
	name  string
	d     *runtime.Domain[S]
	state func([4]int) S
}

func (r *role[S]) Name() string { return r.name }

func (r *role[S]) Measure(f *Figures, rng *rand.Rand, starts int, opts ...runtime.BackwardOption) error {
	as := runtime.NewAStar(r.d, runtime.WithMaxSteps(MaxSteps))
	bc := runtime.NewBackwardChainer(r.d, opts...)
	for range starts {
		var v [4]int
		for i := range v {
			v[i] = rng.IntN(5)
		}
		if _, err := Compare(f, fmt.Sprintf("%s from %v", r.name, v), r.d, as, bc, r.state(v), 0); err != nil {
			return err
		}
	}
	return nil
}

// Compare plans goal g from s with the backward chainer bc and counts
// the call in f when A* (as, the reference) plans it (see Against). It
// reports whether the start counted, and an error for a plan that does
// not replay. name says which call it is, for f.WorstCase.
func Compare[S comparable](f *Figures, name string, d *runtime.Domain[S], as *runtime.AStar[S], bc *runtime.BackwardChainer[S], s S, g runtime.GoalID) (bool, error) {
	var ref runtime.Plan
	if d.Holds(g, s) || as.PlanGoalInto(context.Background(), s, g, &ref) != nil {
		return false, nil
	}
	return true, Against(f, name, d, bc, s, g, ref.Cost, d.Names(ref.Steps))
}

// Against plans goal g from s with the backward chainer bc and counts the
// call in f, against the cheapest plan's cost, cheapest, and steps (its
// action names, for f.WorstRatioCase): whether the chainer found a plan,
// which must replay, its cost over the cheapest, and the time of the call
// (the least of Repeats). It returns an error for a plan that does not
// replay.
func Against[S comparable](f *Figures, name string, d *runtime.Domain[S], bc *runtime.BackwardChainer[S], s S, g runtime.GoalID, cheapest float64, steps []string) error {
	ctx := context.Background()
	var plan runtime.Plan
	// The time of a call is the least of Repeats calls with the same
	// planner, so that a preemption or a collection on a shared
	// machine does not pass for the planner's worst case.
	var err error
	took := time.Duration(math.MaxInt64)
	for range Repeats {
		begin := time.Now()
		err = bc.PlanGoalInto(ctx, s, g, &plan)
		took = min(took, time.Since(begin))
	}
	f.Starts++
	f.times = append(f.times, took)
	if plan.Expansions > f.MostExpansions {
		f.MostExpansions = plan.Expansions
	}
	f.total += took
	f.expansions += plan.Expansions
	f.cases = append(f.cases, fmt.Sprintf("%s, %d expansions: %v", name, plan.Expansions, err))
	if took > f.Worst {
		f.Worst, f.WorstCase = took, f.cases[len(f.cases)-1]
	}
	if err != nil {
		return nil
	}
	end, err := d.Simulate(s, plan.Steps)
	if err != nil || !d.Holds(g, end) {
		return fmt.Errorf("%s: plan %v does not replay: %v", name, d.Names(plan.Steps), err)
	}
	f.Found++
	ratio := plan.Cost / cheapest
	f.ratios = append(f.ratios, ratio)
	if ratio > f.WorstRatio {
		f.WorstRatio, f.WorstRatioCase = ratio, fmt.Sprintf("%s: %v (cost %g), A* %v (cost %g)", name, d.Names(plan.Steps), plan.Cost, steps, cheapest)
	}
	return nil
}

// Repeats is how many times in a row each start is planned; its time is
// the least (see also Figures.Retime).
const Repeats = 3

// Figures are the chainer's results over the starts A* solves.
type Figures struct {
	Starts, Found int
	// Unknown counts the starts left out for want of the cheapest plan's
	// cost (no reference found it within its limits).
	Unknown int
	// Worst is the slowest call, WorstCase which it was.
	Worst     time.Duration
	WorstCase string
	// MostExpansions is the largest number of expansions of a call.
	MostExpansions int
	// WorstRatio is the largest plan cost / optimal cost, WorstRatioCase
	// which call it was, with both plans.
	WorstRatio     float64
	WorstRatioCase string
	total          time.Duration
	times          []time.Duration // of each call, in order
	cases          []string        // which call each was
	expansions     int
	ratios         []float64 // plan cost / optimal cost, of the plans found
}

// FoundShare is the share of starts with a valid plan.
func (f *Figures) FoundShare() float64 { return float64(f.Found) / float64(max(f.Starts, 1)) }

// Mean is the mean time a call.
func (f *Figures) Mean() time.Duration { return f.total / time.Duration(max(f.Starts, 1)) }

// Retime keeps, for each call, the least of its time in f and in g, a
// later pass over the same calls, and sets the mean and the worst from
// them. A stall of the machine longer than a call's Repeats, which the
// least of them does not hide, does not last from one pass to the next.
func (f *Figures) Retime(g *Figures) error {
	if len(g.times) != len(f.times) {
		return fmt.Errorf("retime: %d calls, then %d", len(f.times), len(g.times))
	}
	f.total, f.Worst, f.WorstCase = 0, 0, ""
	for i, t := range g.times {
		f.times[i] = min(f.times[i], t)
		f.total += f.times[i]
		if f.times[i] > f.Worst {
			f.Worst, f.WorstCase = f.times[i], f.cases[i]
		}
	}
	return nil
}

// MeanExpansions is the mean number of expansions a call.
func (f *Figures) MeanExpansions() float64 { return float64(f.expansions) / float64(max(f.Starts, 1)) }

// CostRatio is the p-th quantile (0 < p <= 1) of plan cost / optimal cost.
func (f *Figures) CostRatio(p float64) float64 {
	if len(f.ratios) == 0 {
		return math.NaN()
	}
	r := slices.Sorted(slices.Values(f.ratios))
	return r[min(len(r)-1, max(0, int(math.Ceil(p*float64(len(r))))-1))]
}

func (f *Figures) String() string {
	return fmt.Sprintf("%d starts (%d left out: the cheapest unknown), %.1f%% planned, cost/optimal median %.2f p90 %.2f max %.2f, %.0f expansions (most %d) and %v a call, worst %v (%s)",
		f.Starts, f.Unknown, 100*f.FoundShare(), f.CostRatio(0.5), f.CostRatio(0.9), f.CostRatio(1), f.MeanExpansions(), f.MostExpansions, f.Mean(), f.Worst, f.WorstCase)
}
