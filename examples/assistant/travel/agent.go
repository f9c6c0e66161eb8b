// Package travel is the travel assistant's role: an agent that searches
// flights, books the cheapest one within the traveller's limit (a
// guarded action: a person approves plans that book) and tells the
// traveller. The assistant runs it in process (examples/assistant) and on
// Temporal (the adapter module's examples/assistant).
package travel

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rolegen/rolegen/llm"
)

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Cabin is a travel class.
type Cabin string

// The cabins an offer can be in.
const (
	Economy  Cabin = "economy"
	Business Cabin = "business"
)

// SearchArgs asks for flights.
type SearchArgs struct {
	// From is the departure airport (IATA code).
	From string `json:"from"`
	// To is the arrival airport (IATA code).
	To string `json:"to"`
	// Date is the day of travel, YYYY-MM-DD.
	Date  string `json:"date"`
	Cabin Cabin  `json:"cabin"`
}

// Offer is a flight found by Search.
type Offer struct {
	Flight string `json:"flight"`
	Price  int    `json:"price"`
	Cabin  Cabin  `json:"cabin"`
}

// BookArgs books the cheapest offer found.
type BookArgs struct {
	// Passenger is the traveller's full name.
	Passenger string `json:"passenger"`
	// MaxPrice is the most the traveller pays, in euros.
	MaxPrice int `json:"maxPrice"`
}

// Booking is a confirmed flight.
type Booking struct {
	Reference string `json:"reference"`
	Flight    string `json:"flight"`
	Price     int    `json:"price"`
}

// NotifyArgs is a message to the traveller.
type NotifyArgs struct {
	Message string `json:"message"`
}

// Agent books trips for a traveller.
type Agent struct {
	Searched bool `plan:"state"`
	Booked   bool `plan:"state"`
	Notified bool `plan:"state"`
	// Budget is what the traveller may still spend, in euros.
	Budget int `plan:"state"`

	// Trip: a flight is booked and the traveller knows.
	Trip struct{} `plan:"goal=Booked && Notified; priority=high"`

	offers  []Offer
	booking Booking
	inbox   []string
}

// Search looks for flights on a route and day.
//
//plan:action post="Searched = true" tags=read
func (a *Agent) Search(_ context.Context, in SearchArgs) ([]Offer, error) {
	if len(in.From) != 3 || len(in.To) != 3 {
		return nil, fmt.Errorf("airports are three-letter codes, not %q and %q", in.From, in.To)
	}
	a.offers = []Offer{
		{Flight: in.From + in.To + "-0715", Price: 180, Cabin: in.Cabin},
		{Flight: in.From + in.To + "-1240", Price: 95, Cabin: in.Cabin},
	}
	a.Searched = true
	return a.offers, nil
}

// Book books the cheapest flight found that costs at most MaxPrice; it
// spends the traveller's money, so a person approves plans that book. The
// offers are those the agent found, else those an earlier step of the plan
// returned (on another worker, say).
//
//plan:action pre="Searched && Budget >= 100" post="Booked = true, Budget -= 100" fulfills=Trip guarded cost=3
func (a *Agent) Book(ctx context.Context, in BookArgs) (Booking, error) {
	offers := slices.Clone(a.offers)
	if len(offers) == 0 {
		inputs := llm.StepInputs(ctx)
		for _, id := range slices.Sorted(maps.Keys(inputs)) {
			var found []Offer
			if json.Unmarshal(inputs[id], &found) == nil {
				offers = append(offers, found...)
			}
		}
	}
	slices.SortFunc(offers, func(x, y Offer) int { return x.Price - y.Price })
	for _, o := range offers {
		if o.Price <= in.MaxPrice && o.Price <= a.Budget {
			a.booking = Booking{Reference: "RG" + strings.ToUpper(o.Flight[len(o.Flight)-4:]), Flight: o.Flight, Price: o.Price}
			a.Budget -= o.Price
			a.Booked = true
			return a.booking, nil
		}
	}
	return Booking{}, fmt.Errorf("no offer at most %d euros", in.MaxPrice)
}

// Notify sends the traveller a message, with the details of any booking
// an earlier step of the plan returned.
//
//plan:action pre="Booked" post="Notified = true"
func (a *Agent) Notify(ctx context.Context, in NotifyArgs) error {
	msg := in.Message
	inputs := llm.StepInputs(ctx)
	for _, id := range slices.Sorted(maps.Keys(inputs)) {
		var b Booking
		if json.Unmarshal(inputs[id], &b) == nil && b.Reference != "" {
			msg += fmt.Sprintf(" [%s: flight %s, %d euros]", b.Reference, b.Flight, b.Price)
		}
	}
	a.inbox = append(a.inbox, msg)
	a.Notified = true
	return nil
}

// Inbox returns the messages sent to the traveller.
func (a *Agent) Inbox() []string { return slices.Clone(a.inbox) }
