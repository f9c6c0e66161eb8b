// Package crafting is a role of thirty actions over a numeric inventory:
// a crafting tree from logs to an iron pickaxe, with side recipes that do
// not lead there. From an empty inventory the pickaxe takes some twenty
// steps.
package crafting

import "github.com/rolegen/rolegen/runtime"

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Crafter gathers and crafts. Counts are capped by the actions'
// preconditions, as a small inventory would cap them.
type Crafter struct {
	Wood      int  `plan:"state"`
	Planks    int  `plan:"state"`
	Sticks    int  `plan:"state"`
	Stone     int  `plan:"state"`
	Coal      int  `plan:"state"`
	Ore       int  `plan:"state"`
	Iron      int  `plan:"state"`
	Fiber     int  `plan:"state"`
	Food      int  `plan:"state"`
	Table     bool `plan:"state"`
	Furnace   bool `plan:"state"`
	WoodPick  bool `plan:"state"`
	StonePick bool `plan:"state"`
	IronPick  bool `plan:"state"`
	Axe       bool `plan:"state"`
	Sword     bool `plan:"state"`
	Rod       bool `plan:"state"`
	Torches   int  `plan:"state"`
	Chest     bool `plan:"state"`
	Bucket    bool `plan:"state"`

	// Equipped means an iron pickaxe in hand.
	Equipped struct{} `plan:"goal=IronPick; priority=high"`
}

// ChopWood fells a tree for a log (two with an axe).
//
//plan:action pre="Wood < 3" post="Wood++"
func (c *Crafter) ChopWood() {}

// ChopWithAxe fells a tree with the axe.
//
//plan:action pre="Axe && Wood < 2" post="Wood += 2"
func (c *Crafter) ChopWithAxe() {}

// SawPlanks cuts a log into four planks.
//
//plan:action pre="Wood > 0 && Planks < 8" post="Wood--, Planks += 4"
func (c *Crafter) SawPlanks() {}

// CarveSticks makes four sticks of two planks.
//
//plan:action pre="Planks >= 2 && Sticks < 4" post="Planks -= 2, Sticks += 4"
func (c *Crafter) CarveSticks() {}

// BuildTable builds the crafting table.
//
//plan:action pre="Planks >= 4 && !Table" post="Planks -= 4, Table = true"
func (c *Crafter) BuildTable() {}

// CraftWoodPick crafts a wooden pickaxe.
//
//plan:action pre="Table && Planks >= 3 && Sticks >= 2 && !WoodPick" post="Planks -= 3, Sticks -= 2, WoodPick = true"
func (c *Crafter) CraftWoodPick() {}

// MineStone breaks three stones.
//
//plan:action pre="WoodPick && Stone < 9" post="Stone += 3"
func (c *Crafter) MineStone() {}

// CraftStonePick crafts a stone pickaxe.
//
//plan:action pre="Table && Stone >= 3 && Sticks >= 2 && !StonePick" post="Stone -= 3, Sticks -= 2, StonePick = true"
func (c *Crafter) CraftStonePick() {}

// BuildFurnace builds a furnace of eight stones.
//
//plan:action pre="Stone >= 8 && !Furnace" post="Stone -= 8, Furnace = true"
func (c *Crafter) BuildFurnace() {}

// MineCoal digs coal.
//
//plan:action pre="WoodPick && Coal < 3" post="Coal += 3"
func (c *Crafter) MineCoal() {}

// MineOre digs iron ore.
//
//plan:action pre="StonePick && Ore < 3" post="Ore++"
func (c *Crafter) MineOre() {}

// Smelt smelts ore with coal into an iron ingot.
//
//plan:action pre="Furnace && Ore > 0 && Coal > 0 && Iron < 3" post="Ore--, Coal--, Iron++"
func (c *Crafter) Smelt() {}

// CraftIronPick crafts the iron pickaxe.
//
//plan:action pre="Table && Iron >= 3 && Sticks >= 2 && !IronPick" post="Iron -= 3, Sticks -= 2, IronPick = true" fulfills=Equipped cost=2
func (c *Crafter) CraftIronPick() {}

// CraftAxe crafts a stone axe.
//
//plan:action pre="Table && Stone >= 3 && Sticks >= 2 && !Axe" post="Stone -= 3, Sticks -= 2, Axe = true"
func (c *Crafter) CraftAxe() {}

// CraftSword crafts a stone sword.
//
//plan:action pre="Table && Stone >= 2 && Sticks >= 1 && !Sword" post="Stone -= 2, Sticks--, Sword = true"
func (c *Crafter) CraftSword() {}

// GatherFiber pulls fiber from grass.
//
//plan:action pre="Fiber < 2" post="Fiber++"
func (c *Crafter) GatherFiber() {}

// CraftRod crafts a fishing rod.
//
//plan:action pre="Sticks >= 3 && Fiber >= 2 && !Rod" post="Sticks -= 3, Fiber -= 2, Rod = true"
func (c *Crafter) CraftRod() {}

// Fish catches a fish.
//
//plan:action pre="Rod && Food < 3" post="Food++"
func (c *Crafter) Fish() {}

// Forage picks berries.
//
//plan:action pre="Fiber > 0 && Food < 3" post="Food++, Fiber--"
func (c *Crafter) Forage() {}

// CraftTorch lights a torch of coal and a stick.
//
//plan:action pre="Coal > 0 && Sticks > 0 && Torches < 4" post="Coal--, Sticks--, Torches += 4"
func (c *Crafter) CraftTorch() {}

// BuildChest builds a chest.
//
//plan:action pre="Table && Planks >= 8 && !Chest" post="Planks -= 8, Chest = true"
func (c *Crafter) BuildChest() {}

// CraftBucket crafts a bucket of three ingots.
//
//plan:action pre="Table && Iron >= 3 && !Bucket" post="Iron -= 3, Bucket = true"
func (c *Crafter) CraftBucket() {}

// BurnPlanks burns planks for coal.
//
//plan:action pre="Furnace && Planks >= 2 && Coal < 3" post="Planks -= 2, Coal++" cost=2
func (c *Crafter) BurnPlanks() {}

// CookFood cooks a meal.
//
//plan:action pre="Furnace && Coal > 0 && Food > 0 && Food < 3" post="Coal--, Food++"
func (c *Crafter) CookFood() {}

// PlaceTorch lights the mine.
//
//plan:action pre="Torches > 0" post="Torches--"
func (c *Crafter) PlaceTorch() {}

// SalvageSword breaks the sword down for stone.
//
//plan:action pre="Sword && Stone < 7" post="Sword = false, Stone += 2" cost=2
func (c *Crafter) SalvageSword() {}

// StoreWood stores logs in the chest.
//
//plan:action pre="Chest && Wood > 0" post="Wood--" cost=2
func (c *Crafter) StoreWood() {}

// DrinkWater fills the bucket and drinks.
//
//plan:action pre="Bucket && Food < 3" post="Food++"
func (c *Crafter) DrinkWater() {}

// TradeFood trades food for ore.
//
//plan:action pre="Food >= 2 && Ore < 3" post="Food -= 2, Ore++" cost=3
func (c *Crafter) TradeFood() {}

// TradeFiber trades fiber for coal.
//
//plan:action pre="Fiber >= 2 && Coal < 3" post="Fiber -= 2, Coal++" cost=3
func (c *Crafter) TradeFiber() {}

// Estimate is an admissible estimate, for A*, of the cost still needed to
// hold the iron pickaxe: it counts only actions every plan needs, one per
// kind — the pickaxe itself (cost 2), the ingots still to smelt, the ore
// still to get, the furnace, the table and the sticks when they are
// missing.
func Estimate(s CrafterState, _ []runtime.GoalID) float64 {
	if s.IronPick {
		return 0
	}
	h := 2.0
	smelts := max(0, 3-s.Iron)
	h += float64(smelts + max(0, smelts-s.Ore))
	if smelts > 0 && !s.Furnace {
		h++
	}
	if !s.Table {
		h++
	}
	if s.Sticks < 2 {
		h++
	}
	return h
}
