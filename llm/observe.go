package llm

// The events of a run, observed at one place: every driver's run goes
// through the engine, which reports each event to the planner's observer
// (none by default). Tracing and metrics hang here.

// eventKind names what happened in a run.
type eventKind uint8

const (
	// eventPlan: the model answered a request for a plan (calls made,
	// the plan validated and verified, or the error).
	eventPlan eventKind = iota
	// eventGate: the approval gate decided (status running, rejected,
	// awaiting approval, …).
	eventGate
	eventStepStart
	eventStepEnd
	// eventReplan: the run asks the model for a revision.
	eventReplan
	// eventEnd: the run ended (status, error).
	eventEnd
)

// event is one event of a run.
type event struct {
	kind   eventKind
	runID  string
	plan   *Plan
	calls  []Call
	record *StepRecord
	status Status
	err    error
	// replanning is why the run replans (eventReplan).
	replanning *Replanning
}

// observer receives the events of every run of a planner, from the
// engine's goroutine (never concurrently for one run).
type observer func(event)

// withObserver sets the planner's observer.
func withObserver(o observer) Option { return func(c *config) { c.observe = o } }

// emit reports ev to the planner's observer.
func (e *Engine[S]) emit(ev event) {
	if o := e.p.cfg.observe; o != nil {
		ev.runID = e.id
		o(ev)
	}
}
