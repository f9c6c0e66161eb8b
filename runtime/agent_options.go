package runtime

import "time"

// AgentOption configures an Agent (NewAgent) or every agent of a crowd
// (NewCrowd).
type AgentOption interface {
	CrowdOption
	applyAgent(*agentConfig)
}

// CrowdOption configures a Crowd: the options of its agents
// (AgentOption) and its own (WithWorkers, WithPlanBudget,
// WithPlanTimeBudget).
type CrowdOption interface{ applyCrowd(*crowdConfig) }

type agentConfig struct {
	// interval: replan a plan this many ticks old (0: never).
	interval uint64
	// maxBackoff bounds the ticks a goal that could not be planned waits.
	maxBackoff uint64
	observe    func(AgentView)
	stats      *Stats
	id         int
}

// DefaultMaxBackoff is the longest a goal that could not be planned waits
// before it is planned again, in ticks, unless WithMaxBackoff says.
const DefaultMaxBackoff = 1 << 12

func defaultAgentConfig() agentConfig { return agentConfig{maxBackoff: DefaultMaxBackoff} }

type crowdConfig struct {
	agent   agentConfig
	workers int
	budget  int
	timed   time.Duration
	before  func(agent int, tick uint64)
}

type agentOption func(*agentConfig)

func (o agentOption) applyAgent(c *agentConfig) { o(c) }
func (o agentOption) applyCrowd(c *crowdConfig) { o(&c.agent) }

type crowdOption func(*crowdConfig)

func (o crowdOption) applyCrowd(c *crowdConfig) { o(c) }

// WithReplanInterval makes an agent replan a plan that is n ticks old or
// more, with reason ReplanInterval, even when nothing broke it (n = 0,
// the default: never). A running step that the new plan begins with goes
// on; an uninterruptible one finishes first.
func WithReplanInterval(n int) AgentOption {
	return agentOption(func(c *agentConfig) { c.interval = uint64(max(n, 0)) })
}

// WithMaxBackoff bounds how long a goal that could not be planned waits
// before it is planned again, in ticks (default DefaultMaxBackoff, at
// least 1). The wait doubles with each failure in a row, from one tick:
// over T ticks a hopeless goal is planned about log2(T) times.
func WithMaxBackoff(ticks int) AgentOption {
	return agentOption(func(c *agentConfig) { c.maxBackoff = uint64(max(ticks, 1)) })
}

// WithAgentObserver calls f with what an agent is doing at each event:
// a plan made or dropped, a goal that could not be planned, a step done,
// failed or interrupted. In a crowd, f is called from the crowd's workers
// at once: it must be safe for concurrent use. Without an observer an
// agent builds no view.
func WithAgentObserver(f func(AgentView)) AgentOption {
	return agentOption(func(c *agentConfig) { c.observe = f })
}

// WithAgentStats counts in s what the agents do (see Stats.Agents): their
// ticks, planner calls, plans by reason, failed plans and steps. A crowd
// adds its workers' counts to s once a tick; a lone agent once a Tick.
func WithAgentStats(s *Stats) AgentOption {
	return agentOption(func(c *agentConfig) { c.stats = s })
}

// WithAgentID sets the ID a lone agent's views carry (an agent of a crowd
// has its index in the crowd).
func WithAgentID(id int) AgentOption {
	return agentOption(func(c *agentConfig) { c.id = id })
}

// WithWorkers sets how many goroutines tick a crowd's agents (default 1:
// the calling goroutine). The agents' behaviour does not depend on it.
func WithWorkers(n int) CrowdOption {
	return crowdOption(func(c *crowdConfig) { c.workers = max(n, 1) })
}

// WithPlanBudget bounds the planner calls of a crowd in one tick to n
// (default 0: no bound). Agents that need a plan are served in order:
// those with no plan and those interrupted by a goal of higher priority
// first, then those whose plan is only old (WithReplanInterval), each
// group by how long it has waited, then by index; each agent served gets
// one planner call, and the others wait for the next tick (keeping what
// they run). An agent looking for a way around a plan it refused (one
// that would undo a goal of higher priority on its way) asks for four
// calls; the first agent served in a tick gets them even when n is
// smaller, so that a tick may then make four calls. The order, so the
// crowd's behaviour, depends only on the agents' states. A utility
// planner's agents spend a call on each step (a plan of one step), so
// under n they take about n steps a tick between them: WithPlanTimeBudget
// suits them better.
func WithPlanBudget(n int) CrowdOption {
	return crowdOption(func(c *crowdConfig) { c.budget = max(n, 0) })
}

// WithPlanTimeBudget stops a crowd's planning in a tick once d has passed
// since it began (once every agent has read its live state and checked
// its plan, which d does not count): the agents still waiting plan next
// tick. They are
// served in the order WithPlanBudget describes, and the first of them
// makes its call (the four of a look around) however little time is
// left, so that every agent gets its turn however small d is. The other
// calls of the backward chainer and A* end at d, as at their own time
// budget (WithTimeBudget): the chainer's with the cheapest plan it has
// by then. A call that has none is cut short (AgentCounts.CallsCut), and
// its agent does not back off: it waits for its turn at the next tick,
// keeping how long it has waited, until it is a tick's first and its
// call runs whole. So a tick plans for d or for its first agent's calls,
// whichever is longer: give the planners WithTimeBudget too, to bound
// those. Unlike WithPlanBudget, how many plan in a tick depends on how
// fast the machine is, so the crowd's behaviour is no longer
// deterministic.
func WithPlanTimeBudget(d time.Duration) CrowdOption {
	return crowdOption(func(c *crowdConfig) { c.timed = d })
}

// WithBeforeTick calls f(agent, tick) for every agent of a crowd at each
// tick, on the worker that ticks the agent, just before the agent reads
// its live state: where a game updates what belongs to that agent alone
// (what it perceives, its needs), in parallel like the agents. f must
// touch nothing another agent's call touches; then the crowd stays
// deterministic.
func WithBeforeTick(f func(agent int, tick uint64)) CrowdOption {
	return crowdOption(func(c *crowdConfig) { c.before = f })
}
