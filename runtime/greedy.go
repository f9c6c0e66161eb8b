package runtime

import (
	"math"
	"math/bits"
	"strconv"
)

// greedy is the backward chainer's first pass: depth first, it makes the
// condition of a frame hold by trying its choices in order (see
// chainCall.order), each of which first establishes its action's
// precondition (the same way, one frame deeper) and then takes its step.
// Once a step served a frame, the frame does not go back on it: the pass
// is fast and finds long plans that need no search, and may miss plans
// that need one.
type greedy[S comparable] struct {
	c        *chainCall[S]
	onAgenda []uint64 // one bit per action waiting for its precondition
	// banned: one bit per action the pass may not take as a helper, for
	// it spent what the step it helped was for (see again); bans lists
	// them, innermost last.
	banned []uint64
	bans   []ActionID
	// settled[d] marks the consumed parts of the condition of the frame
	// at depth d that its choices' steps made hold (0 once the frame has
	// ended), nsettled the frames with some; clobbered is the scratch of
	// clobbersLast.
	settled   []uint64
	nsettled  int
	clobbered []choice
	// serving[d] is what the action of the frame at depth d serves: the
	// parts want of condition cond (see topUp).
	serving []served[S]
	// skip: the first choices the next satisfy passes over in its first
	// expansion; resume[d], the index after the choice the first
	// expansion of the frame at depth d took (-1: none remains). See
	// greedy.again.
	skip   int
	resume []int
	// levels[d] is the choice list of the frame at depth d (the goal's
	// is 0), from[d] the state its choice was made in.
	levels [][]choice
	from   []S
	at     S // scratch: the state of the choices being made
	after  S // scratch: the state after a step
	proj   S // scratch: the state after the rest of a batch's runs (batchProgress)
	// spent holds, innermost last, the helpers' steps of the frames
	// whose batch nets progress only with helpers that spend what it is
	// for, while again looks for a way without them (see use).
	spent []ActionID
	// base and rem: the call's steps when the pass began, and how many
	// more it may take.
	base, rem int
	giveUp    int // the expansion count at which the pass gives up
	// proveAt is the expansion count at which the pass tries to prove the
	// goal out of reach from root, the state it began in (see
	// greedyProveAfter), with the chainer's scratch reach; 0: it does not.
	// proved: it did, and gave up.
	proveAt int
	root    S
	reach   *reach
	proved  bool
	// partial: the pass left choices untried (a frame failed after a step
	// served it, or a step would undo a goal another plan may restore),
	// so its failure is not final.
	partial bool
	// branched: some frame had a choice to make (more than one action,
	// an action whose runs it batched, a protected goal to restore), so
	// another plan may be near (see BackwardChainer.improve).
	branched bool
	// The goal frame's first choices (its first expansion, in the state
	// the pass began in): the pass tries them from rootFrom on (the
	// chainer's improve sets it to try the others first), and rootTaken
	// is the one that worked (-1: none), of rootLen.
	rootFrom, rootTaken, rootLen int
	// rootEsts guess what a plan that begins with each of the goal
	// frame's first choices costs, in their order (see guessRoots; none
	// when there was one choice), and rootLater is the least guess after
	// rootTaken: a plan dearer than that may have a cheaper first choice
	// (see BackwardChainer.improve).
	rootEsts  []float64
	rootLater float64
	// rootHand guesses what a plan that begins with one of the goal
	// frame's first choices costs, run only as many times as the state
	// allows, where the pass established its precondition for more runs
	// (sell the bales carried, not shear for every bale the goal needs;
	// see guessAtHand): +Inf when none was.
	rootHand float64
	// taken is the index, in its list, of the choice tryChoices last
	// took.
	taken int
	// without is an action the pass does not take at all (NoAction:
	// none): the improvement's pass without a helper the greedy plan
	// repeats (see BackwardChainer.withoutRepeated).
	without ActionID
}

// greedyBudget is how many expansions the greedy pass may take before it
// gives up: enough for long plans that need no backtracking, and little
// next to the budget, so that a greedy pass lost among wrong choices does
// not cost more than searching properly.
func greedyBudget(maxSteps int) int { return 64 + 2*maxSteps }

// greedyProveAfter is how many expansions the greedy pass takes before it
// tries to prove its goal out of reach (reach.go): most plans are found
// sooner, and a pass lost in a goal that no plan reaches (a fisher at
// sea without the vigor to row back) stops there instead of at its
// budget. It gives up, and the rescue says why.
const greedyProveAfter = 32

func newGreedy[S comparable](c *chainCall[S]) greedy[S] {
	words := (len(c.d.Actions) + 63) / 64
	g := greedy[S]{c: c, onAgenda: make([]uint64, words), banned: make([]uint64, words), bans: make([]ActionID, 0, len(c.d.Actions)), without: NoAction}
	g.spent = make([]ActionID, 0, c.cfg.maxSteps)
	// The scratch of the depths most plans reach, allocated once: a chainer
	// planning in a game loop should not grow it tick after tick as rarer
	// goals go deeper.
	n := min(c.cfg.maxDepth, presizedDepth) + 2
	g.levels, g.from, g.resume = make([][]choice, n), make([]S, n), make([]int, n)
	g.rootEsts = make([]float64, 0, c.listRoom())
	g.clobbered = make([]choice, 0, c.listRoom())
	g.settled = make([]uint64, n)
	g.serving = make([]served[S], n)
	for i := range g.levels {
		g.levels[i] = make([]choice, 0, c.listRoom())
	}
	return g
}

// run plans the call's goal from st with rem steps at most. On success it
// has appended the steps to the call's and set its end state.
//
// It is satisfy for the goal's frame, but for the frame's first choices:
// it tries them from g.rootFrom on, and records which one worked
// (rootTaken) of how many (rootLen).
func (g *greedy[S]) run(st S, rem int) result {
	c := g.c
	g.partial, g.branched = false, false
	g.rootTaken, g.rootLen, g.rootLater, g.rootHand = -1, 0, math.Inf(1), math.Inf(1)
	clear(g.onAgenda)
	clear(g.banned)
	g.bans = g.bans[:0]
	if g.without != NoAction { // banned for the whole pass: before again's bans
		g.banned[uint32(g.without)/64] |= 1 << (uint32(g.without) % 64)
		g.bans = append(g.bans, g.without)
	}
	g.base, g.rem = len(c.steps), rem
	g.giveUp = c.work.expansions + greedyBudget(c.cfg.maxSteps)
	g.proveAt, g.proved = 0, false
	if g.rootFrom == 0 && c.d.Number != nil {
		g.proveAt, g.root = c.work.expansions+greedyProveAfter, st
	}
	failing := c.d.goals[c.goal].failing(st)
	if failing == 0 {
		c.end = st
		return result{kind: found}
	}
	list, r, ok := g.expand(NoAction, batch{}, st, failing, 0, len(c.steps))
	if !ok {
		return r
	}
	from := min(g.rootFrom, len(list))
	g.rootLen = len(list)
	g.rootEsts = g.rootEsts[:0]
	if len(list) > 1 {
		g.guessRoots(list, failing)
	}
	g.guessAtHand(list, st, failing)
	next, failing, r := g.tryChoices(list[from:], NoAction, batch{}, st, 0)
	if r.is(found) {
		g.rootTaken = from + g.taken
		for _, e := range g.rootEsts[min(g.rootTaken+1, len(g.rootEsts)):] {
			g.rootLater = min(g.rootLater, e)
		}
		next, r = g.satisfy(NoAction, batch{}, next, failing, 0)
	}
	switch {
	case r.is(found):
		c.end = next
	case len(c.steps) > g.base:
		// The frame goes back on its first choice too, as satisfy
		// would.
		g.partial = g.partial || r.is(failed)
		c.steps = c.steps[:g.base]
	}
	return r
}

// guessRoots sets rootEsts to a guess of what a plan that begins with
// each choice of list, the goal frame's first, costs: its estimate, plus
// for each part of the goal failing in parts failing that it cannot serve,
// the least estimate of a choice that can (walking home does not light
// the fire). c.ranks holds the list's ranks (see chainCall.order).
func (g *greedy[S]) guessRoots(list []choice, failing uint64) {
	for i := range list {
		g.rootEsts = append(g.rootEsts, g.c.ranks[i].est+g.rest(list, failing&^list[i].want))
	}
}

// rest is the sum, over the parts of the goal in parts, of the least
// estimate of a choice of list that can serve it (c.ranks holds the
// list's ranks): what guessRoots adds to a choice's estimate for the
// failing parts it cannot serve.
func (g *greedy[S]) rest(list []choice, parts uint64) float64 {
	sum := 0.0
	for w := parts; w != 0; w &= w - 1 {
		bit := w & -w
		least := math.Inf(1)
		for j := range list {
			if list[j].want&bit != 0 {
				least = min(least, g.c.ranks[j].est)
			}
		}
		sum += least
	}
	return sum
}

// guessAtHand sets rootHand (see greedy) for list, the goal frame's
// first choices in state st, where the goal fails in parts failing: for
// each choice whose precondition was established for more runs than st
// allows, its estimate with the runs st allows, plus the least estimate
// of a choice for each failing part it cannot serve. c.ranks holds the
// list's ranks when it has more than one choice.
func (g *greedy[S]) guessAtHand(list []choice, st S, failing uint64) {
	c := g.c
	for i := range list {
		ch := &list[i]
		if ch.batch.runs <= 1 {
			continue
		}
		pre := &c.d.pres[ch.opt.act]
		pf := pre.failing(st)
		if ch.pre == pf {
			continue // the state allows every run
		}
		r := c.atHand(pre, ch.batch)
		if r < 1 {
			continue
		}
		hand := *ch
		hand.pre, hand.batch = pf, batch{}
		if r > 1 {
			hand.batch = batch{runs: r, parts: ch.batch.parts}
		}
		guess := c.d.estimate(c.need(NoAction), batch{}, &hand, &c.fields)
		if len(list) > 1 {
			guess += g.rest(list, failing&^ch.want)
		}
		g.rootHand = min(g.rootHand, guess)
	}
}

// satisfy makes the condition of the frame at depth (the goal's, for act
// NoAction; else the precondition of act, for batch b), which fails in s
// in parts failing, hold: it serves it choice after choice and returns the
// state reached. Its first expansion passes over the first g.skip choices
// (see again), and records in g.resume[depth] the index after the
// choice it took (-1: none remains). A frame that fails after a step
// served it does not go back: the failure is partial.
func (g *greedy[S]) satisfy(act ActionID, b batch, s S, failing uint64, depth int) (S, result) {
	c := g.c
	mark := len(c.steps)
	for failing != 0 {
		if b.runs > 1 {
			if b, failing = g.topUp(act, b, s, failing, depth); failing == 0 {
				break
			}
		}
		list, r, ok := g.expand(act, b, s, failing, depth, mark)
		if ok {
			var next S
			if len(c.steps) > mark {
				next, failing, r = g.tryChoices(list, act, b, s, depth)
			} else { // the first expansion: no step yet
				k, n := min(g.skip, len(list)), len(list) // the list is the depth's, which the next expansion reuses
				g.skip = 0
				next, failing, r = g.tryChoices(list[k:], act, b, s, depth)
				g.resume[depth] = -1
				if k += g.taken + 1; k < n {
					g.resume[depth] = k
				}
			}
			if r.is(found) {
				s = next
				continue
			}
		}
		if r.is(failed) && r.reason == CyclicPrecondition && b.runs > 1 {
			// The runs past those s allows need what is being
			// established: take the runs at hand, and let the frame
			// above come back for the rest.
			if cut, f, ok := g.cutToHand(act, b, s, depth, "more need what is being established (cycle)"); ok {
				if b, failing = cut, f; failing == 0 {
					break
				}
				continue
			}
		}
		if r.is(failed) && len(c.steps) > mark {
			g.partial = true
		}
		c.steps = c.steps[:mark]
		return s, r
	}
	return s, result{kind: found}
}

// served is what the action of a frame on the agenda serves: the parts
// want of cond, established for batch b.
type served[S comparable] struct {
	cond *condition[S]
	want uint64
	b    batch
}

// topUp returns the batch the frame of act at depth (for batch b, whose
// precondition fails in s in parts failing) is still established for,
// and its failing parts for that batch. Where s already allows some of
// b's runs, the frame tops up what the others use with an action that
// applies in s (no walk away for it), or, when what they use is not a
// field the agenda is raising (gold, to buy cloth to sell for gold),
// with one whose precondition fails on no such field (not another sack
// of grain for the gold its sale is to bring). Else the frame is established for the runs s
// allows, and the goal's frame comes back for the rest after them: buy
// the sack the gold at hand buys, sell it, come back.
func (g *greedy[S]) topUp(act ActionID, b batch, s S, failing uint64, depth int) (batch, uint64) {
	d := g.c.d
	pre := &d.pres[act]
	extra := failing &^ pre.failing(s) // the parts that hold for one run, not for b's
	if extra == 0 {
		return b, failing
	}
	raised := g.serves(pre, extra, depth)
	for j := range pre.opts {
		o := &pre.opts[j]
		if o.helps&extra == 0 {
			continue
		}
		f := d.pres[o.act].failing(s)
		if f == 0 && extra&pre.fill != 0 {
			// Fill first, where the filling applies: the frame's other
			// parts may take it out of reach (the pearls are gathered
			// at the bottom, sold in port).
			return b, extra
		}
		if f == 0 || !raised && !g.serves(&d.pres[o.act], f, depth) {
			return b, failing
		}
	}
	b, failing, _ = g.cutToHand(act, b, s, depth, "more would need what the plan is for")
	return b, failing
}

// cutToHand returns the batch of the frame of act at depth cut to the
// runs of b that s allows (at least one), its failing parts for it, and
// whether that is fewer runs than b's; why says why, in the trace.
func (g *greedy[S]) cutToHand(act ActionID, b batch, s S, depth int, why string) (batch, uint64, bool) {
	c, d := g.c, g.c.d
	pre := &d.pres[act]
	c.probe = s // s itself would escape
	c.fields.reset(d.Number, &c.probe, len(d.Fields))
	runs := max(c.atHand(pre, b), 1)
	cut := runs < b.runs
	if c.trace != nil && cut {
		c.event(TraceSkip, NoGoal, act, depth, "batched for "+strconv.Itoa(int(runs))+" of "+strconv.Itoa(int(b.runs))+" runs: "+why)
	}
	b.runs = runs
	if runs == 1 {
		b = batch{}
	}
	return b, c.failing(pre, b, &c.probe), cut
}

// serves reports whether a part of cond in parts is on a field that the
// action of a frame on the agenda, down to depth, serves.
func (g *greedy[S]) serves(cond *condition[S], parts uint64, depth int) bool {
	for w := parts; w != 0; w &= w - 1 {
		f := cond.parts[bits.TrailingZeros64(w)].Field
		for _, sv := range g.serving[1 : depth+1] {
			for v := sv.want; v != 0; v &= v - 1 {
				if sv.cond.parts[bits.TrailingZeros64(v)].Field == f {
					return true
				}
			}
		}
	}
	return false
}

// expand makes an expansion of the frame at depth (of action act, for
// batch b), whose condition fails in s in parts failing and whose steps
// are the call's from since: its choices in order, or why there are
// none to make.
func (g *greedy[S]) expand(act ActionID, b batch, s S, failing uint64, depth, since int) ([]choice, result, bool) {
	c := g.c
	if act != NoAction {
		if r, ok := g.mayChain(act, depth); !ok {
			return nil, r, false
		}
	} else if len(c.protected) > 0 && c.undone(s) != NoGoal {
		g.branched = true // another plan may restore protected goals here
	}
	if !c.work.expand() {
		r := c.work.stop()
		r.depth = int16(depth)
		return nil, r, false
	}
	if c.work.expansions == g.proveAt && c.d.unreachable(c.goal, &g.root, g.reach) {
		g.proved = true
		return nil, result{kind: gaveUp}, false
	}
	if c.work.expansions > g.giveUp {
		return nil, result{kind: gaveUp}, false
	}
	return g.choices(act, b, s, failing, depth, since), result{}, true
}

// tryChoices tries the choices of the frame at depth (of action act, for
// batch b) in state s in turn, and returns the state after the first that
// works and the failing parts of the frame's condition there.
func (g *greedy[S]) tryChoices(list []choice, act ActionID, b batch, s S, depth int) (S, uint64, result) {
	c := g.c
	var first result // the first failure below, for the error
	cyclic, cut := false, false
	for i := range list {
		ch := &list[i]
		if g.waiting(ch.opt.act) && !g.reenters(ch, act) {
			cyclic = true
			c.event(TraceSkip, NoGoal, ch.opt.act, depth+1, "already being established (cycle)")
			continue
		}
		if len(g.bans) > 0 && g.isBanned(ch.opt.act) {
			if c.trace != nil {
				why := "spent what the step it helped was for"
				if ch.opt.act == g.without {
					why = "the pass goes without it: the plan before took it again and again"
				}
				c.event(TraceSkip, NoGoal, ch.opt.act, depth+1, why)
			}
			continue
		}
		if depth+1 > g.rem-(len(c.steps)-g.base) {
			cut = true // every action waiting needs a step
			continue
		}
		c.work.generated++
		c.event(TraceTry, NoGoal, ch.opt.act, depth+1, "")
		next, failing, r := g.use(ch, act, b, s, depth+1)
		if !r.is(failed) {
			g.taken = i
			return next, failing, r
		}
		cut = cut || r.cut
		if first.reason == 0 {
			first = r
		}
	}
	return s, 0, g.noChoice(act, depth, first, cyclic, cut)
}

// use takes choice ch, made in state s for the condition of the frame of
// action below (for batch bb): it establishes the precondition of ch's
// action in a frame at depth, then takes its step when that brings what
// ch was chosen for closer to holding than it was in s (helpers and all;
// else see batchProgress and again). The goal's own candidates (depth 1)
// may not undo a protected goal. It returns the state after the step and
// the failing parts of the condition there.
func (g *greedy[S]) use(ch *choice, below ActionID, bb batch, s S, depth int) (S, uint64, result) {
	c, d := g.c, g.c.d
	a := ch.opt.act
	mark := len(c.steps)
	for depth >= len(g.from) {
		g.from, g.serving = append(g.from, s), append(g.serving, served[S]{})
		g.settled = append(g.settled, 0)
	}
	g.from[depth] = s
	st := s
	if ch.pre != 0 {
		g.mark(a)
		g.serving[depth] = served[S]{c.need(below), ch.want, bb}
		var r result
		st, r = g.satisfy(a, ch.batch, s, ch.pre, depth)
		g.settle(depth, 0) // the frame has ended
		g.unmark(a)
		if !r.is(found) {
			return s, 0, r
		}
	}
	g.after = d.Apply(a, st)
	progressed, failing := c.progress(c.need(below), bb, ch.want, &g.from[depth], &g.after)
	if !progressed && ch.batch.runs > 1 {
		progressed = g.batchProgress(ch, below, bb, depth, mark)
	} else if !progressed && len(c.steps) > mark {
		// One run whose helpers spent what it serves on what lasts (a
		// pick, for the copper it smelts): progress when the step
		// itself brings it closer.
		cond := c.need(below)
		if g.invested(cond, ch.want, c.steps[mark:]) {
			g.proj = st // a field: the address of st would make it escape
			progressed, failing = c.progress(cond, bb, ch.want, &g.proj, &g.after)
		}
	}
	if !progressed {
		// again looks for a way that does not spend what the step is
		// for; where there is none, a batch that nets progress with
		// those helpers stands (thread and cloth bought for shirts sold
		// at the fair: nothing else makes shirts).
		helped := ch.batch.runs > 1 && len(c.steps) > mark
		spent, after := len(g.spent), g.after
		if helped {
			g.spent = append(g.spent, c.steps[mark:]...)
		}
		again, r := g.again(ch, below, bb, s, depth, mark)
		switch {
		case r.is(found):
			failing = again
		case helped && r.is(failed) && g.netsAfter(after, ch, below, bb, depth):
			c.steps = append(c.steps[:mark], g.spent[spent:]...)
			if c.trace != nil {
				c.event(TraceKeep, NoGoal, a, depth, "its helpers spent what it serves, but nothing else establishes its precondition, and its batch's runs make up for them")
			}
		default:
			g.spent = g.spent[:spent]
			return s, 0, r
		}
		g.spent = g.spent[:spent]
	}
	if depth == 1 && len(c.protected) > 0 {
		if undone := c.undone(g.after); undone != NoGoal {
			if c.trace != nil {
				c.event(TraceReject, c.goal, a, depth, "would undo goal "+d.GoalName(undone)+" of higher priority")
			}
			r := fail(depth, Unreachable, a, depth-1)
			r.undoes = undone
			g.partial = true
			c.steps = c.steps[:mark]
			return s, 0, r
		}
	}
	c.steps = append(c.steps, a)
	c.event(TraceStep, NoGoal, a, depth, "")
	if m := ch.want &^ failing & c.need(below).consumed; m != 0 {
		g.settle(depth-1, g.settled[depth-1]|m)
	}
	return g.after, failing, result{kind: found}
}

// batchProgress reports whether the runs of ch's action that its batch
// established its precondition for, the first taken (g.after), bring what
// ch was chosen for closer to holding than it was at depth's state, where
// giving back what they use up takes from a part ch serves (see
// chainCall.netRuns), or where the helpers' steps from mark that moved a
// part ch serves away bought what lasts (Domain.lasting): the first sale
// of bolts bought for the trip need not make up what buying them all
// cost, the trip must; the first trade of silver for copper dug with a
// pick need not make up the silver the pick cost, the trades must.
// Helpers that spend on what does not last (food, to rest for the next
// pan) are passed over instead (see again), unless nothing else
// establishes the precondition: then use keeps the batch where its runs
// net progress (batchNets: the tailor's cloth and thread, bought for the
// shirts she sells).
func (g *greedy[S]) batchProgress(ch *choice, below ActionID, bb batch, depth, mark int) bool {
	c := g.c
	cond := c.need(below)
	if !g.bought(cond, ch.opt.act, ch.want) && !g.invested(cond, ch.want, c.steps[mark:]) {
		return false
	}
	return g.batchNets(ch, below, bb, depth)
}

// netsAfter is batchNets with after the state after the first run: it
// leaves g.after there.
func (g *greedy[S]) netsAfter(after S, ch *choice, below ActionID, bb batch, depth int) bool {
	g.after = after
	return g.batchNets(ch, below, bb, depth)
}

// batchNets reports whether the runs of ch's action that its batch
// established its precondition for, the first taken (g.after), bring
// what ch was chosen for closer to holding than it was at depth's state.
func (g *greedy[S]) batchNets(ch *choice, below ActionID, bb batch, depth int) bool {
	c, d := g.c, g.c.d
	a := ch.opt.act
	cond := c.need(below)
	g.proj = g.after
	for k := int32(1); k < ch.batch.runs && d.pres[a].failing(g.proj) == 0; k++ {
		g.proj = d.Apply(a, g.proj)
	}
	progressed, _ := c.progress(cond, bb, ch.want, &g.from[depth], &g.proj)
	return progressed
}

// bought reports whether giving back what action a uses up of its
// precondition takes from a part of cond in want (condition.lost).
func (g *greedy[S]) bought(cond *condition[S], a ActionID, want uint64) bool {
	if cond.lost == nil {
		return false
	}
	for w, n := want, len(cond.parts); w != 0; w &= w - 1 {
		if cond.lost[int(a)*n+bits.TrailingZeros64(w)] > 0 {
			return true
		}
	}
	return false
}

// invested reports whether some of steps, a step's helpers, move a part
// of cond in want away from holding, and each that does buys what lasts
// or pays for a later step that does (the prospector's trades of copper
// for the silver her pick costs).
func (g *greedy[S]) invested(cond *condition[S], want uint64, steps []ActionID) bool {
	spent, owed := false, false
	for _, h := range steps {
		if g.c.d.lasting[h] {
			owed = false
		}
		if cond.opposes(h, want) {
			if !g.c.d.lasting[h] {
				owed = true
			}
			spent = true
		}
	}
	return spent && !owed
}

// again is use when the step of ch's action, after its helpers' steps
// from mark, brought nothing closer to holding: it establishes the
// precondition again from s, without the helpers whose steps moved a part
// the step serves away from holding (buying food spends the gold panning
// earns), else with the next of the frame's first choices, until the
// step brings something closer (then it has set g.after and returns the
// failing parts of the condition served after it) or neither is left.
func (g *greedy[S]) again(ch *choice, below ActionID, bb batch, s S, depth, mark int) (uint64, result) {
	c, d := g.c, g.c.d
	a := ch.opt.act
	cond := c.need(below)
	bans := len(g.bans)
	defer g.unban(bans)
	for {
		if c.trace != nil {
			c.event(TraceReject, NoGoal, a, depth, "brings no failing part of what it serves closer to holding")
		}
		// Helpers that took steps for it were not tried otherwise.
		helped := len(c.steps) > mark
		g.partial = g.partial || helped
		banned := helped && g.ban(c.steps[mark:], cond, ch.want)
		c.steps = c.steps[:mark]
		switch {
		case banned:
		case helped && g.resume[depth] >= 0:
			g.skip = g.resume[depth]
		default:
			return 0, fail(depth, Unreachable, a, depth-1)
		}
		g.mark(a)
		st, r := g.satisfy(a, ch.batch, s, ch.pre, depth)
		g.settle(depth, 0) // the frame has ended
		g.unmark(a)
		// satisfy's first expansion takes g.skip; where it returned
		// before one (its precondition held after topUp, or the frame
		// could not chain), the skip must not pass to the next frame.
		g.skip = 0
		if !r.is(found) {
			return 0, r
		}
		g.after = d.Apply(a, st)
		if progressed, failing := c.progress(cond, bb, ch.want, &g.from[depth], &g.after); progressed {
			return failing, result{kind: found}
		}
	}
}

// mayChain reports whether helpers may be chained for action a, whose
// frame is at depth; when not, the failure.
func (g *greedy[S]) mayChain(a ActionID, depth int) (result, bool) {
	c := g.c
	if c.trace != nil {
		c.event(TraceChain, NoGoal, a, depth, c.d.Actions[a].PreText)
	}
	if !c.cfg.chaining {
		if c.trace != nil {
			c.event(TraceReject, NoGoal, a, depth, "precondition "+strconv.Quote(c.d.Actions[a].PreText)+" fails and chaining is off")
		}
		return fail(depth, Unreachable, a, depth-1), false
	}
	if depth-1 >= c.cfg.maxDepth {
		return fail(depth, MaxDepthExceeded, a, depth-1), false
	}
	return result{}, true
}

// choices returns the ordered choices of the frame at depth (of action a,
// for batch b, its steps the call's from since) in state s, in the list
// of that depth.
func (g *greedy[S]) choices(a ActionID, b batch, s S, failing uint64, depth, since int) []choice {
	c := g.c
	for depth >= len(g.levels) {
		g.levels, g.resume = append(g.levels, nil), append(g.resume, -1)
	}
	g.at = s
	list := c.choose(g.levels[depth], a, b, &g.at, failing, depth+1)
	if len(list) > 1 {
		c.order(list, a, b, c.steps[since:])
		g.clobbersLast(list, a, b, depth)
	}
	if !g.branched {
		// A choice to make: two actions that are not waiting, or one whose
		// runs were batched.
		open := 0
		for i := range list {
			if !g.waiting(list[i].opt.act) {
				open++
			}
			g.branched = g.branched || list[i].batch.runs > 1
		}
		g.branched = g.branched || open > 1
	}
	g.levels[depth] = list // grown, maybe
	return list
}

// clobbersLast moves to the end of list, in their order, the choices
// that apply in g.at and whose step would take from a supply that a
// frame on the agenda, the frame's own (of action a, for batch b) or one
// above it, had the plan's steps establish for its action, which uses it
// up (see greedy.settled): the step undoes what the plan did for a step
// waiting on it (the miller who eats one of the loaves she baked to sell
// for the energy to walk to the market: giving it back takes another
// bake, a mill and a harvest, where resting costs two more).
func (g *greedy[S]) clobbersLast(list []choice, a ActionID, b batch, depth int) {
	if g.nsettled == 0 {
		return
	}
	c := g.c
	moved := g.clobbered[:0]
	n := 0
	for i := range list {
		ch := list[i]
		if ch.pre == 0 && g.takes(ch.opt.act, a, b, depth) {
			moved = append(moved, ch)
			continue
		}
		list[n] = ch
		n++
	}
	copy(list[n:], moved)
	if c.trace != nil {
		for _, ch := range moved {
			c.event(TraceLast, NoGoal, ch.opt.act, depth+1, "its step takes from a supply the plan established for a step waiting on it")
		}
	}
	g.clobbered = moved[:0]
}

// settle sets settled[depth] to m.
func (g *greedy[S]) settle(depth int, m uint64) {
	switch was := g.settled[depth]; {
	case was == 0 && m != 0:
		g.nsettled++
	case was != 0 && m == 0:
		g.nsettled--
	}
	g.settled[depth] = m
}

// takes reports whether action h, in g.at, moves away from holding a
// settled part that holds of the condition of the frame at depth (of
// action a, for batch b) or of a frame above it.
func (g *greedy[S]) takes(h, a ActionID, b batch, depth int) bool {
	c := g.c
	for k := 0; k <= depth && k < len(g.settled); k++ {
		m := g.settled[k]
		if m == 0 {
			continue
		}
		cond, cb := c.need(a), b
		if k < depth {
			cond, cb = g.serving[k+1].cond, g.serving[k+1].b
		}
		if cond.opposes(h, m) && cond.opposes(h, m&^c.failing(cond, cb, &g.at)) {
			return true
		}
	}
	return false
}

// noChoice is the failure of the frame at depth (of action a) when no
// choice worked; first is the first failure below.
func (g *greedy[S]) noChoice(a ActionID, depth int, first result, cyclic, cut bool) result {
	if a == NoAction {
		if first.reason == 0 {
			first = fail(depth, Unreachable, NoAction, 0)
		}
		first.frame, first.cut = int16(depth), cut
		return first
	}
	r := fail(depth, Unreachable, a, depth-1)
	switch {
	case first.reason != 0 && first.reason != Unreachable:
		r = first
		r.frame = int16(depth)
	case cyclic && first.reason == 0:
		r.reason = CyclicPrecondition
	}
	if g.c.trace != nil {
		g.c.event(TraceReject, NoGoal, a, depth, r.reason.String())
	}
	r.cut = cut
	return r
}

// ban bans the actions among steps, a step's helpers, that move a part
// of cond the step was to serve (want) away from holding, until the step
// is taken or given up (see again), and reports whether it banned
// any.
func (g *greedy[S]) ban(steps []ActionID, cond *condition[S], want uint64) bool {
	banned := false
	for _, h := range steps {
		if g.isBanned(h) {
			continue
		}
		if cond.opposes(h, want) {
			g.banned[uint32(h)/64] |= 1 << (uint32(h) % 64)
			g.bans = append(g.bans, h)
			banned = true
		}
	}
	return banned
}

// unban lifts the bans after the first n.
func (g *greedy[S]) unban(n int) {
	for _, h := range g.bans[n:] {
		g.banned[uint32(h)/64] &^= 1 << (uint32(h) % 64)
	}
	g.bans = g.bans[:n]
}

// isBanned reports whether action a may not be taken as a helper.
func (g *greedy[S]) isBanned(a ActionID) bool {
	return g.banned[uint32(a)/64]&(1<<(uint32(a)%64)) != 0
}

// waiting reports whether action a waits for its precondition.
func (g *greedy[S]) waiting(a ActionID) bool {
	return g.onAgenda[uint32(a)/64]&(1<<(uint32(a)%64)) != 0
}

// reenters reports whether choice ch, whose action is waiting on the
// agenda, may be taken again for the frame of action act: where its
// precondition holds as it is and act buys what lasts (see
// Domain.lasting), a run of it now for act is no cycle. The
// prospector's ten copper for a silver waits for copper to smelt with
// a pick, and the pick is bought with silver traded from the copper at
// hand.
func (g *greedy[S]) reenters(ch *choice, act ActionID) bool {
	return ch.pre == 0 && act != NoAction && g.c.d.lasting[act]
}

// mark and unmark put action a on the agenda's set and take it off (a is
// an action, never NoAction: the unsigned index is for the compiler).
func (g *greedy[S]) mark(a ActionID)   { g.onAgenda[uint32(a)/64] |= 1 << (uint32(a) % 64) }
func (g *greedy[S]) unmark(a ActionID) { g.onAgenda[uint32(a)/64] &^= 1 << (uint32(a) % 64) }
