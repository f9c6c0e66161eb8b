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
//   - [NewBackwardChainer]: goal regression. For each unsatisfied goal,
//     highest priority first, the first candidate action whose precondition
//     holds is taken; otherwise the actions that write what the precondition
//     reads are chained backwards.
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
//     reports; a goal it cannot plan backs off; a crowd plans within a
//     budget a tick, deterministically, across workers. Any planner serves
//     ([GoalPlanner]: the backward chainer, A*, [NewUtilityPlanner]).
//
// Plan means the same on every planner ([Planner]), so that [Think] does
// the same with either: every goal unsatisfied in the state, highest
// priority first, each from the state the previous goal's steps leave and
// without undoing a goal of higher priority that holds; the plan for the
// goals it could plan and the error of the first goal it could not. The
// options both take ([WithSearchBudget], [WithMaxSteps], [WithTrace],
// [WithStats]) count the same thing in both, and each limit fails with a
// [Reason] of its own.
//
// Everything is deterministic: candidates are tried in declaration order, so
// the same state always gives the same plan. Nothing here uses reflection,
// and a planner that is reused (see [BackwardChainer.PlanInto],
// [AStar.PlanInto], [UtilitySelector.RankedInto]) does not allocate in
// steady state.
package runtime
