package travel

import (
	"context"
	"fmt"

	"github.com/rolegen/rolegen/runtime"
)

// Example_think runs the agent without a model: the backward chainer
// plans Search, Book and Notify, and runtime.WithArgs gives each step its
// typed arguments from the state (Book is guarded, so an approver is set).
func Example_think() {
	a := &Agent{Budget: 400}
	ran, err := runtime.Think(context.Background(), runtime.NewBackwardChainer(AgentDomain), a,
		runtime.WithApprover(func(context.Context, runtime.Plan) error { return nil }),
		runtime.WithArgs(AgentSearchArgs, func(context.Context, AgentState) (SearchArgs, error) {
			return SearchArgs{From: "ZRH", To: "LIS", Date: "2026-12-18", Cabin: Economy}, nil
		}),
		runtime.WithArgs(AgentBookArgs, func(_ context.Context, s AgentState) (BookArgs, error) {
			return BookArgs{Passenger: "Ada Lovelace", MaxPrice: min(150, s.Budget)}, nil
		}),
		runtime.WithArgs(AgentNotifyArgs, func(context.Context, AgentState) (NotifyArgs, error) {
			return NotifyArgs{Message: "Your flight to Lisbon is booked."}, nil
		}),
	)
	fmt.Println(len(ran), "steps", err)
	fmt.Printf("%+v %s %q\n", a.PlanState(), a.booking.Reference, a.Inbox())
	// Output:
	// 3 steps <nil>
	// {Searched:true Booked:true Notified:true Budget:305} RG1240 ["Your flight to Lisbon is booked."]
}
