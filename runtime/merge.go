package runtime

import (
	"math/bits"
	"strconv"
)

// merge joins the plan's visits to a place (the call's steps from mark,
// run from st, reaching c.end): local search over the order of the
// plan's steps, after the improvement or the rescue has its cheapest
// plan.
//
// A visit is a run of steps after a walk: a step that sets a field to a
// constant that steps of another action set too (see places), up to the
// next step that sets that field; two visits after the same walk action
// are to the same place, and the steps before the first walk are where
// st is, which may be where any later walk goes. Each such field is
// looked at in turn (the brewer's place, and her kettle, scrubbed clean
// and dirtied by a brew). The greedy pass plans each part of a goal in
// turn, and each part walks where its supplies are: the armorer goes
// back to the mine for the coal of the second stoking after the ore of
// the first, and the brewer to the well for the water of her second
// brew. For each two visits to a place, merge tries the later visit's
// steps at the end of the earlier one (hoist), without the walk to the
// later visit, and the earlier visit's steps at the start of the later
// one (delay), without the walk to the earlier visit (none for the
// steps before the first walk). It runs each such plan from st, leaving
// out the steps that no longer apply there (the walk away from a visit
// that is gone), and keeps the cheapest that still reaches the goal and
// keeps the protected goals; then it looks again at the plan it kept,
// until no move makes the plan cheaper or it has tried mergeTries
// plans, and drops the steps the plan it kept does without (drop).
//
// Every step of a plan it keeps applies where it is taken, so the plan
// is valid; it never costs more than the plan it replaces. It does not
// look at a plan the improvement proved a cheapest (no dearer than the
// goal's lower bound). On the written roles in bench, the armorer's
// plans above 1.2 times the cheapest fall from 273 of her 1,566 pairs
// to 70, and the brewer's from 212 of 1,472 to 89 (with the visits to a
// place alone; BENCHMARKS.md, "Visits to a place joined"), for 0.6 % of
// the chainer's time over the 37 roles.
func (b *BackwardChainer[S]) merge(st S, mark int) {
	c, d := &b.call, b.d
	if c.work.late || len(c.steps)-mark < mergeLeast {
		return
	}
	cost, err := d.planCost(st, c.steps[mark:])
	if err != nil {
		return
	}
	tries, moved := 0, 0
	for tries < mergeTries {
		steps := c.steps[mark:]
		best, bestEnd := cost, c.end
		b.moved = b.moved[:0]
		for places := b.places(steps); places != 0; places &= places - 1 {
			b.stays(steps, places&-places)
			for i, v := range b.segs {
				for _, w := range b.segs[i+1:] {
					// The visit before the first walk is where st is, which
					// may be where any walk goes: the moves that do not
					// fit leave the goal undone, or cost no less.
					if w.walk != v.walk && v.walk != NoAction || tries >= mergeTries {
						continue
					}
					for _, hoist := range [2]bool{true, false} {
						if hoist && w.lo == w.hi || !hoist && v.lo == v.hi {
							continue
						}
						cand := b.cand[:0]
						if hoist {
							// The later visit's steps after the earlier's,
							// without the walk to the later visit.
							cand = append(cand, steps[:v.hi]...)
							cand = append(cand, steps[w.lo:w.hi]...)
							cand = append(cand, steps[v.hi:w.lo-1]...)
							cand = append(cand, steps[w.hi:]...)
						} else {
							// The earlier visit's steps before the later's,
							// without the walk to the earlier visit (none
							// before the first).
							cand = append(cand, steps[:max(v.lo-1, 0)]...)
							cand = append(cand, steps[v.hi:w.lo]...)
							cand = append(cand, steps[v.lo:v.hi]...)
							cand = append(cand, steps[w.lo:]...)
						}
						b.cand = cand
						tries++
						kept, end, cc, ok := b.runApplying(st, cand, b.kept[:0])
						b.kept = kept[:0]
						if !ok || cc >= best*(1-1e-9) || !d.Goals[c.goal].Cond(end) || c.undone(end) != NoGoal {
							continue
						}
						best, bestEnd = cc, end
						b.moved = append(b.moved[:0], kept...)
					}
				}
			}
		}
		if len(b.moved) == 0 {
			break
		}
		c.steps = append(c.steps[:mark], b.moved...)
		cost, c.end = best, bestEnd
		moved++
	}
	if moved == 0 {
		return
	}
	if c.trace != nil {
		c.event(TraceImprove, c.goal, NoAction, 0, "a cheaper plan with visits to a place joined, of "+counted(len(c.steps)-mark, "step")+" costing "+strconv.FormatFloat(cost, 'g', -1, 64))
	}
	b.drop(st, mark) // what the joined visits left to do without
}

// stays splits steps into b.segs at the steps that set the field place
// (one bit of Domain.sets): the steps before the first, then those after
// each up to the next.
func (b *BackwardChainer[S]) stays(steps []ActionID, place uint64) {
	b.segs = b.segs[:0]
	at, lo := NoAction, 0
	for i, a := range steps {
		if b.d.sets[a]&place != 0 {
			b.segs = append(b.segs, stay{walk: at, lo: lo, hi: i})
			at, lo = a, i+1
		}
	}
	b.segs = append(b.segs, stay{walk: at, lo: lo, hi: len(steps)})
}

// places returns the fields that steps of two actions or more set to a
// constant (bit f%64 for field f, as Domain.sets): where the agent is,
// which each walk sets to a place of its own. A field only one action
// sets to a constant (sleeping sets Energy = 10, stoking Heat = 3) is no
// place, however often the plan takes it.
func (b *BackwardChainer[S]) places(steps []ActionID) uint64 {
	var setter [64]ActionID
	var once, more uint64
	for _, a := range steps {
		for m := b.d.sets[a]; m != 0; m &= m - 1 {
			f := bits.TrailingZeros64(m)
			switch bit := uint64(1) << f; {
			case once&bit == 0:
				once |= bit
				setter[f] = a
			case setter[f] != a:
				more |= bit
			}
		}
	}
	return more
}

// mergeLeast is the fewest steps a plan merge looks at has: two visits
// to a place and the walk between them.
const mergeLeast = 4

// mergeTries is how many plans merge runs at most for a goal: on the
// written roles in bench, nearly every goal's merge runs fewer than 32,
// and the most any ran was 232 (the armorer's plans of 30 steps and
// more, with a dozen visits).
const mergeTries = 256

// stay is a run of a plan's steps, [lo, hi), after the walk action walk
// (NoAction for the steps before the first walk): see merge.
type stay struct {
	walk   ActionID
	lo, hi int
}
