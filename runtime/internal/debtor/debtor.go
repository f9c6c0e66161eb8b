// Package debtor is a worker in debt for the runtime's tests: she pays
// her debt and saves with everything in her wallet at once (Debt -=
// Wallet, Savings += Wallet), at the bank, whatever it holds: neither
// needs a coin in the wallet.
package debtor

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Worker pays off a debt and saves.
type Worker struct {
	At      string `plan:"state"`
	Energy  int    `plan:"state; min=0; max=8"`
	Wallet  int    `plan:"state; min=0; max=30"`
	Debt    int    `plan:"state; min=0"`
	Savings int    `plan:"state; min=0"`
	Tools   bool   `plan:"state"`

	Solvent struct{} `plan:"goal=Debt <= 0; priority=high"`
	Rested  struct{} `plan:"goal=Energy >= 4"`
	Secure  struct{} `plan:"goal=Savings >= 25 && Debt == 0; priority=low"`
}

// Walk between home, the yard and the bank; tired legs walk slowly.
//
//plan:action pre="At != \"home\"" post="At = \"home\"" cost="2 + (8 - Energy) / 4"
func (w *Worker) GoHome() { w.At = "home" }

//plan:action pre="At != \"yard\" && Energy >= 1" post="At = \"yard\", Energy -= 1" cost="2 + (8 - Energy) / 4"
func (w *Worker) GoYard() { w.At = "yard"; w.Energy-- }

//plan:action pre="At != \"bank\"" post="At = \"bank\"" cost="3"
func (w *Worker) GoBank() { w.At = "bank" }

// Work a shift at the yard; with tools it pays better.
//
//plan:action pre="At == \"yard\" && Energy >= 2 && !Tools" post="Wallet += 4, Energy -= 2" cost=3
func (w *Worker) Labor() { w.Wallet += 4; w.Energy -= 2 }

//plan:action pre="At == \"yard\" && Energy >= 2 && Tools" post="Wallet += 9, Energy -= 2" cost=3
func (w *Worker) Craft() { w.Wallet += 9; w.Energy -= 2 }

// BuyTools at the yard.
//
//plan:action pre="At == \"yard\" && Wallet >= 10 && !Tools" post="Tools = true, Wallet -= 10" cost=1
func (w *Worker) BuyTools() { w.Tools = true; w.Wallet -= 10 }

// Sleep at home.
//
//plan:action pre="At == \"home\" && Energy < 8" post="Energy = 8" cost=4
func (w *Worker) Sleep() { w.Energy = 8 }

// Pay everything in the wallet toward the debt, at the bank.
//
//plan:action pre="At == \"bank\" && Debt > 0" post="Debt -= Wallet, Wallet = 0" cost=1
func (w *Worker) Pay() { w.Debt -= w.Wallet; w.Wallet = 0 }

// Deposit the wallet, at the bank.
//
//plan:action pre="At == \"bank\"" post="Savings += Wallet, Wallet = 0" cost=1
func (w *Worker) Deposit() { w.Savings += w.Wallet; w.Wallet = 0 }
