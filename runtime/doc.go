// Package runtime holds the planning domain of a role and the planners
// that search it: what a program that uses rolegen's generated code
// imports. (Generated files also import runtime/rolegenimpl, the helpers
// only they call.)
//
// A generated role R has a state type RState, a domain RDomain of type
// *Domain[RState] whose actions and goals carry their conditions and effects
// as plain Go functions, and the methods PlanState and Perform. The planners
// here work on any such domain:
//
//   - [NewBackwardChainer]: goal regression (below, "The backward
//     chainer"). For each unsatisfied goal, highest priority first, the
//     actions that can make it hold are tried cheapest first, and the
//     actions that can make a failing precondition hold are chained
//     backwards.
//   - [NewAStar]: GOAP-style forward A* over states with the actions'
//     costs. It returns a cheapest plan for a goal ([AStar.PlanGoal]) or a
//     conjunction of goals ([AStar.PlanGoals]); its estimate is derived
//     from the annotations ([Domain.LowerBound]), admissible, so plans stay
//     cheapest, unless [WithHeuristic], [WithWeight] or another estimate
//     option says otherwise.
//   - [NewUtility]: utility AI. It ranks the actions whose precondition
//     holds by a weighted mean of considerations times the action's
//     weight, and picks the best ([UtilitySelector.Best]). By default
//     ([DefaultConsiderations]) an action is rated by the unsatisfied
//     goals it serves ([GoalUrgency]), its cost and value on the role's
//     own scale ([RelativeCost], [RelativeValue]) and
//     [PreconditionSatisfied]; also [Cost], [Value], [Utility], [HasTag],
//     [Curve] over a [ResponseCurve], [Combine], or any [Func].
//   - [Think]: plan from a role's current state and perform the plan,
//     re-checking each precondition against the live state first: for
//     one-shot use and services.
//   - [Agent] and [Crowd]: a role in a game loop, one tick a frame. An
//     action may take ticks (a method of the shape
//     func(runtime.Step) runtime.Status, which says [Running], [Done] or
//     [Failed]); an agent keeps its plan across ticks, checks it only when
//     a field it reads changed, and replans only for a [Replan] reason it
//     reports; a goal it cannot plan backs off, and so does one whose
//     steps keep failing (a step that says done without its post fails:
//     [PostMissedError]); a crowd plans within a
//     budget a tick, deterministically, across workers. Any planner serves
//     ([GoalPlanner]: the backward chainer, A*, [NewUtilityPlanner]).
//
// Plan means the same on every planner ([Planner]), so that [Think] does
// the same with either: every goal unsatisfied in the state, highest
// priority first, each from the state the previous goal's steps leave and
// without undoing a goal of higher priority that holds; the plan for the
// goals it could plan and the error of the first goal it could not. The
// options both take ([WithSearchBudget], [WithTimeBudget], [WithMaxSteps],
// [WithTrace], [WithStats]) count the same thing in both, and each limit
// fails with a [Reason] of its own.
//
// # The backward chainer
//
// Its words, each with one meaning in this package's code and docs:
//
//   - A condition is a goal's condition or an action's precondition; its
//     parts are its conjuncts ([Part]), at most 64, each failing or
//     holding in a state.
//   - An option of a condition is an action that can serve one of its
//     parts: it declares the goal in fulfills, or its effect is in a
//     serving relation to the part ([Relation]): it achieves it, advances
//     its field toward what it needs (Food += 10 for Food > 80, maybe
//     several steps; for a part that orders a [Sum], Pies + Soup >= 4,
//     the sum: Bake's Pies += 1 advances it, SellPie's Pies -= 1 does
//     not), or may (a form the annotations do not tell). Where
//     the part's field has a [Range] and the state a value outside it
//     (only the live state has one), any action that writes the field
//     can serve the part: the write lands the field in its range,
//     whichever way it moves it (Health at -100 in 0..100, Health -= 5
//     leaves 0).
//   - A frame is what the chainer is making hold: the goal's condition, or
//     the precondition of an action that waits for it. The agenda is the
//     stack of frames, the goal's at the bottom; its depth is the number
//     of actions waiting ([WithMaxDepth] bounds it). An action on the
//     agenda is not chosen again below itself (that is a cycle).
//   - A choice is an option that can serve a failing part of the top
//     frame, made in a state; it pushes a frame for the action's
//     precondition when that fails. Its batch is how many times the
//     action must run for what it serves when each run consumes a field
//     of its own precondition that it does not advance (SellWheat, for
//     three sales, needs Wheat >= 3, not Wheat >= 1): the precondition is
//     then established for all the runs at once. Where only actions that
//     take from the served field give that precondition back (cloth
//     bought for 5 to sell for 9), a run counts for what it nets (4).
//     Once the state allows some of the runs, the greedy pass tops up
//     what the others use with an action that applies, or, where that
//     is not a field an action on the agenda serves, with one whose
//     precondition fails on no such field; else the precondition is
//     established for the runs the state allows, and the goal comes back
//     for the rest (a trader with 2 gold buys the sack it buys, sells it
//     and comes back for two, where chaining a way to more gold for more
//     sacks went in circles). A batch whose every choice needs an action
//     on the agenda (a cycle) is cut the same way, to the runs the state
//     allows, where it would fail. An action whose step adds a multiple of a
//     field its precondition asks for some of (Sell: Coins += 7 * Pearls,
//     needing Pearls >= 1; [ChangeAddTimes]) is batched the same way, a
//     unit of that field for a run: one step with Pearls >= 4 does the
//     work of four sales of a pearl. Its frame fills that field first
//     while an action that fills it applies (gather at the bottom, then
//     sail to port).
//   - A step runs the action of a frame whose precondition holds. It
//     counts only when it brings what the choice was made for closer to
//     holding than it was when the choice was made: a failing part now
//     holds, or its field moved toward what it needs; a batched step
//     whose helpers took from that field, when the batch's last run
//     would (the first sale of a trip's bolts need not make up what
//     buying them all cost). Reaching a state not seen before is not
//     progress.
//   - The protected goals of a goal are the goals of higher priority that
//     held when its steps started: they must hold when they end.
//   - An expansion is one frame whose choices were made, or one state
//     the forward search expanded: the unit of [WithSearchBudget] and of
//     [Plan.Expansions].
//
// It plans a goal with a greedy pass, and searches forward over states
// where that pass finds no plan or may have found a dear one:
//
//   - The greedy pass goes depth first: it tries the choices of a frame
//     in order (last a part the choices for another failing part would
//     undo, since they set its field to a value that fails it or need
//     the field at such a value, and a part whose choices all need the
//     field at the value such a part needs; then a choice that applies
//     and serves only parts no action undoes, or none but the frame's
//     own action where the frame took the choice's step before: water
//     drawn twice at the well for two brews, not once before the walk
//     to the market; then the hardest part first;
//     then by the estimate of the choice's cost, one step of the action
//     and the cheapest helpers of its failing precondition; then a
//     choice whose step leaves the others that apply applicable; then
//     one that declares the goal in fulfills; then declaration order;
//     and after all of them a choice whose step would take from a
//     supply that a frame's own steps made hold for its action, which
//     uses it up: the loaves baked for sale, not eaten for the walk to
//     the market), and takes the first that leads to the goal. A step
//     counts when it brings what it was chosen for closer to holding; when its helpers' steps undid that, its precondition is
//     established again without the helpers whose steps move what the
//     step serves away from holding, then with the frame's next first
//     choice. Once a step has served a frame, the frame does not go back
//     on it. It finds long plans that need no search quickly.
//   - The rescue runs when the greedy pass found nothing (but for a
//     failure at the depth limit alone, [MaxDepthExceeded]): leads first
//     (see below), then a forward search over states, A* with the
//     derived estimate for the goal and the goals it protects, on the
//     rest of the budget. It finds the plans goal regression does not
//     build (some begin with a step that undoes what the goal needs, so
//     that another step becomes possible). It is A* for 512 states, a
//     cheapest plan; past them it counts its estimate twice (weighted
//     A*), and its plan costs at most twice the cheapest, past 1,024
//     four times, a plan at most four times the cheapest, and past 2,048
//     eight times, a plan at most eight times the cheapest, where A* may
//     need thousands of states more for the cheapest (the estimate of a
//     goal such as savings can be far below what they cost). Until
//     2026-12-06 a complete pass of goal regression (its choices
//     searched best first, the situations that failed remembered) ran
//     beside it; the forward search alone plans as much, as cheaply or
//     more so, with fewer expansions.
//   - The improvement looks for a plan cheaper than the greedy pass's
//     when that plan has a detour (it sets a field to a constant an
//     earlier step set it to, or back to its value at the start after a
//     step set it: a walk back to a place it left) or costs more than
//     the guess of a plan that begins with one of the goal frame's
//     later first choices (its estimate, plus the least estimate of a
//     choice for each failing part of the goal it cannot serve), or
//     with one of its first choices run only as often as the state
//     allows where the pass established its precondition for more runs,
//     or begins with a later first choice because the earlier ones
//     failed, or costs more than 1.5 and at most 8 times the goal's
//     lower bound, unless the greedy pass had no choice to make or the
//     plan costs no more than the goal's lower bound. It spends at most
//     [DefaultImprovement] expansions ([WithImprovement]) on the greedy
//     pass again, with each of the goal frame's first choices after the
//     one the plan began with taken first, and as many again on leads,
//     when the plan costs more than the guess of a later first choice;
//     then the forward search looks for a plan cheaper than the
//     cheapest so far: A* for the improvement's budget, then weighted
//     A* (its estimate counted twice) for twice that budget, then four
//     times for as long again, and stops as soon as it proves none is
//     cheaper (the least f on its open list, unweighed a lower bound on
//     every plan it has yet to find, reaches that plan's cost). It opens
//     no state whose cost so far and estimate come to more than that
//     plan's (branch and bound), so that weighed it reaches no dearer
//     plan. The cheapest plan wins.
//   - A lead is a step taken first, up to three times in a row, before
//     the greedy pass plans the goal from where it leads: goal
//     regression chains a step where the part it serves fails, never
//     earlier for what a later step needs (a fisher who rows out with
//     the vigor he has and cannot row back, where resting first would
//     have done). Each action that applies where the goal's steps begin
//     is a lead, tried cheapest first by its cost and the goal's lower
//     bound after it, each greedy pass within 16 expansions. The
//     improvement tries them; so does the rescue, first, within 256
//     expansions in all, and when none finds a plan, the rescue gives
//     64 expansions to the first two whose pass ran out of them (a plan
//     a lead makes possible may be long: a ranger in town with nothing
//     to sell walks to the forest, then hunts, chops and fletches before
//     he sells, 21 steps). When one finds a plan in the rescue, the
//     forward search bounded by its cost looks for a cheaper one, as in
//     the improvement, where the rescue would have searched on.
//   - Before the improvement searches, on each plan it finds, and on the
//     rescue's plan, the chainer drops the steps the plan does without
//     (greedy action elimination): a step whose action the plan takes
//     again, or that sets a field to a constant another step sets, goes,
//     with the later steps that no longer apply without it, when the goal
//     and the protected goals still hold at the end and the plan costs
//     less.
//   - Last, unless the improvement proved the goal's plan a cheapest, the
//     chainer joins its visits to a place (local search over the order of
//     its steps): a visit is the steps after a walk (a step that sets a
//     field to a constant that another action's steps set too) up to the
//     next, and for each two visits after the same walk (and the steps
//     before the first walk with each later visit: where the agent stands
//     may be where it walks back to) it tries the later visit's steps at
//     the end of the earlier one and the earlier's at the start of the
//     later one, each without the walk to the visit that is gone, and
//     keeps the cheapest plan that still reaches the goal, until none is
//     cheaper (256 plans at most a goal). An armorer who went back to the
//     mine for the coal of a second stoking digs it with the ore.
//
// What it promises about cost: the plan is the greedy pass's, or a
// cheaper one; it is not always the cheapest plan (A* finds that:
// the chainer's choices serve failing parts only, and the greedy pass
// commits to its order). A rescue the forward search found past its 512
// states of A* costs at most twice the cheapest, past 1,024 four times,
// past 2,048 eight times. On the hand-written
// roles of the bench module (README, "Planners"), over every start and
// goal that has a plan, plans cost at most 1.2 times the cheapest at the
// 90th percentile, and twice at worst, on every role (the dearest at the
// 90th percentile: a beekeeper at 1.16, an armorer whose blades take
// smelted iron, a hot forge and a hammer that wears at 1.15, a chandler
// at 1.14 and a brewer who sells a beer to buy the yeast for two more at
// 1.12; at worst a miller at 1.61 and a farmhand at 1.58); every case is
// planned but 0.4 % of one role's, whose cheapest plans take 62 to 64
// of the 64 steps, and 0.1 % of the armorer's; and no
// call takes more than 1 ms but those failures (4.6 to 5.6 ms, the
// armorer's 14 to 17 ms), the armorer's dearest (up to 15 ms: long
// rescues, weighed eight times), those of a beekeeper, whose energy
// comes a little at a time from a nap or four at a time from a rest at
// home (1.6 to 2.4 ms from run to run), of a tavern keeper whose guests
// pay what her notices cost (1.4 to 2.2 ms), of a chandler who buys
// what her candles are made of (1.0 to 1.5 ms), of a miller who walks
// her roads one at a time (1.1 to 1.9 ms), and of a settler, a hunter,
// a shipwright, a tailor, a turner and a greenhouse grower whose walks
// cost more the more tired she is (up to 1.9 ms).
//
// Everything is deterministic: candidates are tried in declaration order, so
// the same state always gives the same plan (but for a call that a time
// budget, [WithTimeBudget], ends: how far it got depends on the machine).
// Nothing here uses reflection,
// and a planner that is reused (see [BackwardChainer.PlanInto],
// [AStar.PlanInto], [UtilitySelector.RankedInto]) does not allocate in
// steady state.
package runtime
