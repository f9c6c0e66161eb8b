package main

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

import (
	"fmt"

	"github.com/rolegen/rolegen/runtime"
)

// Smith keeps a stock of ingots and serves the customers who come in.
// Fetching ore takes the forge's one cart for three ticks and can be
// interrupted; pouring takes three ticks and cannot: molten iron does not
// wait.
type Smith struct {
	Ore      int  `plan:"state"`
	Ingots   int  `plan:"state"`
	Customer bool `plan:"state"`

	// Served means nobody waits at the counter.
	Served struct{} `plan:"goal=!Customer; priority=high"`
	// Stocked means ingots to sell.
	Stocked struct{} `plan:"goal=Ingots >= 2"`

	// Cart is the forge's cart: FetchOre reserves it, and must give it
	// back however the fetch ends.
	Cart *Cart
	// Log is what happened, for the example to print.
	Log []string
}

// Cart is a resource one action holds at a time.
type Cart struct{ HeldBy string }

// FetchOre brings ore from the mine with the cart, in three ticks.
//
//plan:action pre="Ore == 0" post="Ore = 2"
func (s *Smith) FetchOre(t runtime.Step) runtime.Status {
	switch {
	case t.Interrupted:
		s.Cart.HeldBy = ""
		s.say("fetching stopped after %d ticks: the cart is given back", t.Ticks)
		return runtime.Done
	case t.First():
		s.Cart.HeldBy = "FetchOre"
		s.say("takes the cart to the mine")
	}
	if t.Ticks < 2 {
		return runtime.Running
	}
	s.Ore, s.Cart.HeldBy = 2, ""
	s.say("back with ore, the cart given back")
	return runtime.Done
}

// Pour casts an ingot, in three ticks; once the iron is molten, nothing
// interrupts it.
//
//plan:action pre="Ore > 0" post="Ore--, Ingots++" uninterruptible
func (s *Smith) Pour(t runtime.Step) runtime.Status {
	if t.First() {
		s.say("pours molten iron")
	}
	if t.Ticks < 2 {
		return runtime.Running
	}
	s.Ore, s.Ingots = s.Ore-1, s.Ingots+1
	s.say("an ingot is cast (%d in stock)", s.Ingots)
	return runtime.Done
}

// Serve sells an ingot to the customer.
//
//plan:action pre="Customer && Ingots > 0" post="Customer = false, Ingots--" fulfills=Served
func (s *Smith) Serve() {
	s.Customer, s.Ingots = false, s.Ingots-1
	s.say("serves the customer (%d in stock)", s.Ingots)
}

func (s *Smith) say(format string, args ...any) {
	s.Log = append(s.Log, fmt.Sprintf(format, args...))
}
