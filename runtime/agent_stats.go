package runtime

import "sync/atomic"

// agentCounts is what agents did, counted without atomics by one agent or
// one worker of a crowd, then added to a Stats.
type agentCounts struct {
	ticks, acting, waiting, idle int64
	running, done, failed        int64
	interrupted, checks          int64
	calls, failures, proven      int64
	cut                          int64
	plans, dropped               [numReplans]int64
}

func (c *agentCounts) add(o *agentCounts) {
	c.ticks += o.ticks
	c.acting += o.acting
	c.waiting += o.waiting
	c.idle += o.idle
	c.running += o.running
	c.done += o.done
	c.failed += o.failed
	c.interrupted += o.interrupted
	c.checks += o.checks
	c.calls += o.calls
	c.failures += o.failures
	c.proven += o.proven
	c.cut += o.cut
	for r := range c.plans {
		c.plans[r] += o.plans[r]
		c.dropped[r] += o.dropped[r]
	}
}

// agentTotals is agentCounts in atomic counters, in a Stats.
type agentTotals struct {
	ticks, acting, waiting, idle atomic.Int64
	running, done, failed        atomic.Int64
	interrupted, checks          atomic.Int64
	calls, failures, proven      atomic.Int64
	cut                          atomic.Int64
	plans, dropped               [numReplans]atomic.Int64
}

// addAgents adds c to s's agent counters.
func (s *Stats) addAgents(c *agentCounts) {
	t := &s.agents
	add := func(a *atomic.Int64, n int64) {
		if n != 0 {
			a.Add(n)
		}
	}
	add(&t.ticks, c.ticks)
	add(&t.acting, c.acting)
	add(&t.waiting, c.waiting)
	add(&t.idle, c.idle)
	add(&t.running, c.running)
	add(&t.done, c.done)
	add(&t.failed, c.failed)
	add(&t.interrupted, c.interrupted)
	add(&t.checks, c.checks)
	add(&t.calls, c.calls)
	add(&t.failures, c.failures)
	add(&t.proven, c.proven)
	add(&t.cut, c.cut)
	for r := range c.plans {
		add(&t.plans[r], c.plans[r])
		add(&t.dropped[r], c.dropped[r])
	}
}

// AgentCounts is what a Stats counted of agents (WithAgentStats). Every
// count is a sum over agents and ticks, and they add up:
//
//	Ticks        = Acting + Waiting + Idle
//	Acting       = StepsRunning + StepsDone + StepsFailed
//	PlannerCalls = Σ Plans + PlanFailures + CallsCut
//
// (but for an agent that looks for a way around a plan it refused: up to
// four calls for one plan or failure).
type AgentCounts struct {
	// Ticks counts agent-ticks: one per agent per tick.
	Ticks int64
	// Acting counts the agent-ticks in which the agent called its step's
	// method (once a tick at most), Waiting those in which it had a goal
	// that does not hold but no plan (its goals backing off, or no
	// planner call to spare), Idle those in which every goal held.
	Acting, Waiting, Idle int64
	// StepsRunning, StepsDone and StepsFailed count the calls of step
	// methods by what they returned: Running, Done, Failed (or an error).
	StepsRunning, StepsDone, StepsFailed int64
	// Interrupted counts the running steps abandoned (each told so).
	Interrupted int64
	// Checks counts the plans checked against the live state: at most one
	// a tick an agent, only when a field the plan reads changed.
	Checks int64
	// PlannerCalls counts the planner calls, PlanFailures those that
	// found no plan (the goal then backs off). Unreachable counts the
	// goals proven out of reach without a planner call (by the relaxed
	// reachability of the annotations), which back off alike.
	PlannerCalls, PlanFailures, Unreachable int64
	// CallsCut counts the planner calls of a crowd's agents that its
	// WithPlanTimeBudget cut short: the agent plans again at the next
	// tick, and does not back off.
	CallsCut int64
	// Plans counts the plans made, by Replan (indexed by it), and Dropped
	// the plans dropped before their end or at it, by reason: ReplanDone,
	// ReplanStepFailed, ReplanStale, ReplanBroken.
	Plans, Dropped [numReplans]int64
}

// PlansMade sums Plans over the reasons.
func (c AgentCounts) PlansMade() int64 {
	var n int64
	for _, p := range c.Plans {
		n += p
	}
	return n
}

// Agents returns what s counted of agents (see WithAgentStats). Counts
// added while it runs may or may not be seen, in part.
func (s *Stats) Agents() AgentCounts {
	t := &s.agents
	c := AgentCounts{
		Ticks: t.ticks.Load(), Acting: t.acting.Load(), Waiting: t.waiting.Load(), Idle: t.idle.Load(),
		StepsRunning: t.running.Load(), StepsDone: t.done.Load(), StepsFailed: t.failed.Load(),
		Interrupted: t.interrupted.Load(), Checks: t.checks.Load(),
		PlannerCalls: t.calls.Load(), PlanFailures: t.failures.Load(), Unreachable: t.proven.Load(),
		CallsCut: t.cut.Load(),
	}
	for r := range t.plans {
		c.Plans[r] = t.plans[r].Load()
		c.Dropped[r] = t.dropped[r].Load()
	}
	return c
}

// export returns c as AgentCounts.
func (c *agentCounts) export() AgentCounts {
	return AgentCounts{
		Ticks: c.ticks, Acting: c.acting, Waiting: c.waiting, Idle: c.idle,
		StepsRunning: c.running, StepsDone: c.done, StepsFailed: c.failed,
		Interrupted: c.interrupted, Checks: c.checks,
		PlannerCalls: c.calls, PlanFailures: c.failures, Unreachable: c.proven,
		CallsCut: c.cut, Plans: c.plans, Dropped: c.dropped,
	}
}
