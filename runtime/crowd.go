package runtime

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Crowd ticks many agents of one domain at once, spreading their
// planning over ticks within a budget (WithPlanBudget: at most N planner
// calls a tick; WithPlanTimeBudget: a time), across workers
// (WithWorkers), each with a planner of its own.
//
// A tick has three phases. Every agent reads its live state and checks
// its plan, in parallel. Then the crowd chooses, in one goroutine, which
// of the agents that need a plan get a planner call this tick: those with
// no plan and those interrupted by a goal of higher priority first, then
// those whose plan is only old, each group by how long it has waited,
// then by index (an agent whose plan is broken or interrupted goes on
// with it while it waits). Last, every agent plans if it was chosen and
// calls its step's method, in parallel (with WithPlanTimeBudget, the chosen agents
// plan first, in that order, until the time is spent, then every agent
// acts). Since that choice depends only on the
// agents' states, and an agent's tick only on its own, a crowd behaves
// the same with any number of workers (an observer sees the events of
// different agents in any order). Steady ticks allocate nothing.
//
// Agents of a crowd must only touch their own role when they act, as
// they run in parallel. A Crowd is not safe for concurrent use.
type Crowd[S comparable] struct {
	d      *Domain[S]
	cfg    crowdConfig
	agents []*Agent[S]
	// slab holds the agents, in order, so that a tick walks memory
	// straight; a full slab is followed by a new one, so agents never move.
	slab    []Agent[S]
	workers []*crowdWorker[S]
	reqs    []crowdRequest
	totals  agentCounts
	tick    uint64

	// What the workers of a phase read.
	ctx     context.Context
	phase   crowdPhase
	frame   time.Duration // when planning ends, on clock (WithPlanTimeBudget)
	next    atomic.Int64  // the next agent to claim
	start   []chan crowdPhase
	done    sync.WaitGroup
	running bool
}

type crowdWorker[S comparable] struct {
	agentScratch[S]
	_ [64]byte // keep workers' counters off each other's cache lines
}

// crowdRequest is an agent that needs a plan, in the order it is served.
type crowdRequest struct {
	class uint8  // 0: no plan or interrupted; 1: a plan that is only old
	at    uint64 // since when it waits (class 0), when its plan was made (1)
	agent int32
}

type crowdPhase uint8

const (
	phaseSense crowdPhase = iota
	phasePlan             // the chosen agents plan, in the crowd's order (a time budget)
	phaseAct
	phaseBoth // sense, then act with any planner calls
)

// chunk is how many agents a worker claims at a time, and slabAgents how
// many agents a slab of a crowd holds.
const (
	chunk      = 64
	slabAgents = 1024
)

// NewCrowd returns an empty crowd over domain d; newPlanner makes each
// worker's planner (runtime.NewBackwardChainer(d), NewAStar(d),
// NewUtilityPlanner(NewUtility(d)), …). Close it when done.
func NewCrowd[S comparable](d *Domain[S], newPlanner func() GoalPlanner[S], opts ...CrowdOption) *Crowd[S] {
	cfg := crowdConfig{agent: defaultAgentConfig(), workers: 1}
	for _, o := range opts {
		o.applyCrowd(&cfg)
	}
	c := &Crowd[S]{d: d, cfg: cfg}
	for range cfg.workers {
		p := newPlanner()
		if p.Domain() != d {
			panic("runtime.NewCrowd: the planner's domain is not the crowd's")
		}
		c.workers = append(c.workers, &crowdWorker[S]{agentScratch: *newAgentScratch(p)})
	}
	return c
}

// Add adds an agent running role and returns it; its ID is its index in
// the crowd. Not during Tick.
func (c *Crowd[S]) Add(role Actor[S]) *Agent[S] {
	if len(c.slab) == cap(c.slab) {
		c.slab = make([]Agent[S], 0, slabAgents)
	}
	c.slab = c.slab[:len(c.slab)+1]
	a := &c.slab[len(c.slab)-1]
	a.init(c.d, role, &c.cfg.agent, len(c.agents))
	a.inCrowd = true
	c.agents = append(c.agents, a)
	return a
}

// Agents returns the crowd's agents, by index (the crowd's own slice: do
// not change it).
func (c *Crowd[S]) Agents() []*Agent[S] { return c.agents }

// Tick runs every agent for one tick (see Crowd).
func (c *Crowd[S]) Tick(ctx context.Context) {
	c.tick++
	c.ctx = ctx
	c.frame = 0
	if c.cfg.budget == 0 && c.cfg.timed == 0 {
		// Every agent that needs a plan gets one: nothing to choose,
		// one pass.
		c.run(phaseBoth)
	} else {
		c.run(phaseSense)
		c.grant()
		if c.cfg.timed > 0 {
			c.frame = deadlineIn(c.cfg.timed) // the planning's time, from now
			c.run(phasePlan)
			for _, r := range c.reqs {
				c.agents[r.agent].grant = 0 // planned, or waits for the next tick: the act phase does not plan
			}
		}
		c.run(phaseAct)
	}
	c.ctx = nil
	for _, w := range c.workers {
		c.totals.add(&w.counts)
		if s := c.cfg.agent.stats; s != nil {
			s.addAgents(&w.counts)
		}
		w.counts = agentCounts{}
	}
}

// Counts returns what the crowd's agents did since it was made, in the
// terms of Stats.Agents.
func (c *Crowd[S]) Counts() AgentCounts { return c.totals.export() }

// grant chooses the agents that plan this tick, and how many planner
// calls each may make.
func (c *Crowd[S]) grant() {
	c.reqs = c.reqs[:0]
	wanted := 0
	for i, a := range c.agents {
		a.grant = 0
		if a.need == ReplanNone {
			continue
		}
		wanted += a.wants()
		r := crowdRequest{at: a.since, agent: int32(i)}
		if a.need == ReplanInterval {
			r.class, r.at = 1, a.planned
		}
		c.reqs = append(c.reqs, r)
	}
	budget := c.cfg.budget
	if c.cfg.timed > 0 || budget > 0 && wanted > budget {
		slices.SortFunc(c.reqs, func(x, y crowdRequest) int {
			if x.class != y.class {
				return int(x.class) - int(y.class)
			}
			if x.at != y.at {
				return cmp.Compare(x.at, y.at)
			}
			return int(x.agent - y.agent)
		})
	}
	if budget == 0 {
		for _, r := range c.reqs {
			c.agents[r.agent].grant = -1
		}
		return
	}
	// In that order, each agent costs the calls it asks for (one, or
	// those of a look around a refused plan: Agent.wants) while the
	// budget lasts; what is left is shared out evenly. The first gets
	// what it asks for however small the budget, as WithPlanTimeBudget's
	// first plans however late: else a budget below a look around's
	// calls would cut every look around short.
	used, n := 0, 0
	for _, r := range c.reqs {
		w := c.agents[r.agent].wants()
		if n > 0 && used+w > budget {
			break
		}
		used, n = used+w, n+1
	}
	c.reqs = c.reqs[:n]
	if n == 0 {
		return
	}
	extra := max(budget-used, 0) / n
	for i, r := range c.reqs {
		a := c.agents[r.agent]
		a.grant = min(a.wants()+extra, budget)
		if i == 0 {
			a.grant = max(a.grant, a.wants())
		}
	}
}

// run runs a phase over every agent, on the workers.
func (c *Crowd[S]) run(ph crowdPhase) {
	c.phase = ph
	c.next.Store(0)
	if len(c.workers) == 1 {
		c.work(c.workers[0])
		return
	}
	if !c.running {
		c.running = true
		c.start = make([]chan crowdPhase, len(c.workers))
		for i, w := range c.workers {
			c.start[i] = make(chan crowdPhase)
			go c.serve(w, c.start[i])
		}
	}
	c.done.Add(len(c.workers))
	for _, s := range c.start {
		s <- ph
	}
	c.done.Wait()
}

// serve runs the phases a worker is sent until Close.
func (c *Crowd[S]) serve(w *crowdWorker[S], start <-chan crowdPhase) {
	for range start {
		c.work(w)
		c.done.Done()
	}
}

// work claims agents chunk by chunk and runs the phase on each.
func (c *Crowd[S]) work(w *crowdWorker[S]) {
	sc := &w.agentScratch
	sc.ctx, sc.tick, sc.frame = c.ctx, c.tick, c.frame
	defer func() { sc.ctx = nil }()
	n := len(c.agents)
	before, phase := c.cfg.before, c.phase
	for {
		if phase == phasePlan {
			if !c.planNext(sc) {
				return
			}
			continue
		}
		lo := int(c.next.Add(chunk)) - chunk
		if lo >= n {
			return
		}
		agents := c.agents[lo:min(lo+chunk, n)]
		switch phase {
		case phaseSense:
			for i, a := range agents {
				if before != nil {
					before(lo+i, sc.tick)
				}
				a.sense(sc)
			}
		case phaseAct:
			for _, a := range agents {
				a.act(sc, a.grant)
			}
		default:
			for i, a := range agents {
				if before != nil {
					before(lo+i, sc.tick)
				}
				a.sense(sc)
				// act, without a call for an agent with nothing to do
				if a.need == ReplanNone && a.goal == NoGoal {
					a.countIdle(&sc.counts)
				} else {
					a.planAndPerform(sc, -1)
				}
			}
		}
	}
}

// planNext plans the next agent of the tick's requests, in their order,
// within the time budget; the first of them makes the calls it wants
// (Agent.wants) whatever the time, so that a crowd plans at least one
// agent a tick however small its budget. It reports false when no
// request is left, or no time.
func (c *Crowd[S]) planNext(sc *agentScratch[S]) bool {
	i := int(c.next.Add(1)) - 1
	if i >= len(c.reqs) || i > 0 && overdue(sc.frame) {
		return false // the rest wait for the next tick
	}
	a := c.agents[c.reqs[i].agent]
	if i == 0 {
		sc.exempt = a.wants()
	}
	sc.held = false
	a.replan(sc, a.grant)
	sc.exempt = 0
	if a.unsettled {
		a.settle(sc)
	}
	return true
}

// Close stops the crowd's workers. The crowd may not tick after.
func (c *Crowd[S]) Close() {
	for _, s := range c.start {
		close(s)
	}
	c.start, c.running = nil, false
}
