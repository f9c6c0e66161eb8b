package main

import "os"

// The customer at tick 3 interrupts the fetching, which gives the cart
// back; the one at tick 8 waits for the pouring to finish.
func Example() {
	run(os.Stdout)
	// Output:
	// tick  1: plans Stocked: [FetchOre Pour] (no plan)
	// tick  1: takes the cart to the mine
	// tick  3: a customer comes in
	// tick  3: fetching stopped after 2 ticks: the cart is given back
	// tick  3: plans Served: [Serve] (interrupted)
	// tick  3: serves the customer (0 in stock)
	// tick  4: plans Stocked: [FetchOre Pour Pour] (plan done)
	// tick  4: takes the cart to the mine
	// tick  6: back with ore, the cart given back
	// tick  7: pours molten iron
	// tick  8: a customer comes in
	// tick  9: an ingot is cast (1 in stock)
	// tick 10: plans Served: [Serve] (interrupted)
	// tick 10: serves the customer (0 in stock)
	// tick 11: plans Stocked: [Pour FetchOre Pour] (plan done)
	// tick 11: pours molten iron
	// tick 13: an ingot is cast (1 in stock)
	// tick 14: takes the cart to the mine
	// tick 16: back with ore, the cart given back
	// in the end: 1 ingots, 2 ore, the cart held by ""
}
