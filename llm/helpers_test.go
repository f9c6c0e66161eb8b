package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rolegen/rolegen/llm"
	"github.com/rolegen/rolegen/runtime"
)

// A travel role, written by hand the way rolegen generates it.

type tripState struct {
	Money     int
	HasFlight bool
	HasHotel  bool
	Pinged    int
}

const (
	fMoney runtime.FieldID = iota
	fHasFlight
	fHasHotel
	fPinged
)

const gTravelling runtime.GoalID = 0

const (
	searchArgs = `{"type":"object","properties":{"to":{"type":"string"}},"required":["to"],"additionalProperties":false}`
	flightArgs = `{"type":"object","properties":{"from":{"type":"string"},"to":{"type":"string"},"seats":{"type":"integer"}},"required":["from","to","seats"],"additionalProperties":false}`
	hotelArgs  = `{"type":"object","properties":{"city":{"type":"string"},"nights":{"type":"integer"}},"required":["city","nights"],"additionalProperties":false}`
	wireArgs   = `{"type":"object","properties":{"amount":{"type":"integer"}},"required":["amount"],"additionalProperties":false}`
	emptyArgs  = `{"properties":{},"additionalProperties":false,"type":"object","required":[]}`
)

func tripDomain() *runtime.Domain[tripState] {
	actions := []runtime.Action[tripState]{
		{
			Name: "Search", Description: "Searches the flights to a city.",
			Cost: 1, Value: 1, Weight: 1, Args: searchArgs,
		},
		{
			Name: "BookFlight", Description: "Books a flight.",
			Pre: func(s tripState) bool { return s.Money >= 100 }, PreText: "Money >= 100",
			Effect:     func(s tripState) tripState { s.HasFlight, s.Money = true, s.Money-100; return s },
			EffectText: "HasFlight = true, Money -= 100",
			Cost:       1, Value: 1, Weight: 1,
			PreReads: []runtime.FieldID{fMoney}, Reads: []runtime.FieldID{fMoney},
			Writes: []runtime.FieldID{fMoney, fHasFlight}, Args: flightArgs,
		},
		{
			Name: "BookHotel", Description: "Books a hotel room.",
			Pre: func(s tripState) bool { return s.HasFlight }, PreText: "HasFlight",
			Effect:     func(s tripState) tripState { s.HasHotel = true; return s },
			EffectText: "HasHotel = true",
			Cost:       1, Value: 1, Weight: 1,
			PreReads: []runtime.FieldID{fHasFlight}, Reads: []runtime.FieldID{fHasFlight},
			Writes: []runtime.FieldID{fHasHotel}, Args: hotelArgs,
		},
		{
			Name: "Ping", Description: "Pings the agency.",
			Effect:     func(s tripState) tripState { s.Pinged++; return s },
			EffectText: "Pinged++",
			Cost:       1, Value: 1, Weight: 1,
			Reads: []runtime.FieldID{fPinged}, Writes: []runtime.FieldID{fPinged},
		},
		{
			Name: "Wire", Description: "Wires money to the account.",
			Effect:     func(s tripState) tripState { s.Money += 100; return s },
			EffectText: "Money += 100",
			Cost:       1, Value: 1, Weight: 1, Guarded: true,
			Reads: []runtime.FieldID{fMoney}, Writes: []runtime.FieldID{fMoney}, Args: wireArgs,
		},
	}
	return runtime.NewDomain(runtime.Domain[tripState]{
		Name: "Traveler",
		Fields: []runtime.Field{
			{Name: "Money", Type: "int", Kind: runtime.KindInt},
			{Name: "HasFlight", Type: "bool", Kind: runtime.KindBool},
			{Name: "HasHotel", Type: "bool", Kind: runtime.KindBool},
			{Name: "Pinged", Type: "int", Kind: runtime.KindInt},
		},
		Actions: actions,
		Goals: []runtime.Goal[tripState]{{
			Name: "Travelling", Description: "Flight and hotel are booked.",
			Priority: runtime.Normal,
			Cond:     func(s tripState) bool { return s.HasFlight && s.HasHotel },
			CondText: "HasFlight && HasHotel",
			Reads:    []runtime.FieldID{fHasFlight, fHasHotel},
		}},
	})
}

// The domain is built once, as a generated one would be (a package
// variable), so the argument schemas are compiled once for all tests.
var trip = tripDomain()

// step renders a plan step as the model writes it.
func step(id, capability, args string, deps ...string) string {
	if deps == nil {
		deps = []string{}
	}
	d, _ := json.Marshal(deps)
	return fmt.Sprintf(`{"id":%q,"capability":%q,"args":%s,"dependsOn":%s}`, id, capability, args, d)
}

// planJSON renders a plan as the model writes it.
func planJSON(steps ...string) string {
	return `{"steps":[` + strings.Join(steps, ",") + `]}`
}

const (
	searchParis = `{"to":"Paris"}`
	flightParis = `{"from":"Oslo","to":"Paris","seats":1}`
	hotelParis  = `{"city":"Paris","nights":2}`
)

// goodPlan books a flight then a hotel in Paris.
var goodPlan = planJSON(
	step("s1", "BookFlight", flightParis),
	step("s2", "BookHotel", hotelParis, "s1"),
)

// recorder is an executor that records the steps it runs and the inputs
// they saw; it is safe for concurrent use.
type recorder struct {
	mu     sync.Mutex
	ran    []string
	inputs map[string][]string // step id -> ids of the inputs it saw
	// fail makes the given steps fail (once each, when failOnce).
	fail     map[string]error
	failOnce bool
	// output computes a step's output; default {"step":ID}.
	output func(llm.Step) json.RawMessage
	// before is called before a step, outside the lock.
	before func(ctx context.Context, st llm.Step) error
}

func newRecorder() *recorder {
	return &recorder{inputs: map[string][]string{}, fail: map[string]error{}}
}

func (r *recorder) exec(ctx context.Context, st llm.Step, inputs map[string]json.RawMessage) (json.RawMessage, error) {
	if r.before != nil {
		if err := r.before(ctx, st); err != nil {
			return nil, err
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var seen []string
	for id := range inputs {
		seen = append(seen, id)
	}
	slices.Sort(seen)
	r.inputs[st.ID] = seen
	if err, ok := r.fail[st.ID]; ok {
		if r.failOnce {
			delete(r.fail, st.ID)
		}
		r.ran = append(r.ran, st.ID+"!")
		return nil, err
	}
	r.ran = append(r.ran, st.ID)
	if r.output != nil {
		return r.output(st), nil
	}
	return json.RawMessage(fmt.Sprintf(`{"step":%q}`, st.ID)), nil
}

func (r *recorder) steps() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ran...)
}

// target runs steps with the recorder from a state with money for one
// flight.
func (r *recorder) target(s tripState) llm.Target[tripState] {
	return llm.FuncTarget(trip, s, r.exec)
}

var rich = tripState{Money: 500}

// statuses returns "id:status" for each record.
func statuses(res *llm.Result) []string {
	var out []string
	for _, rec := range res.Steps {
		out = append(out, fmt.Sprintf("%d/%s:%s", rec.Revision, rec.Step.ID, rec.Status))
	}
	return out
}
