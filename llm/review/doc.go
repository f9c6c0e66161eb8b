// Package review is a web page where a person decides the plans of runs
// awaiting approval: an http.Handler, mounted where you like, as
// net/http/pprof is.
//
//	planner := llm.NewPlanner(travel.AgentDomain, model, llm.WithStore(store), llm.WithRequireVerified(2))
//	res, err := planner.Propose(ctx, goal, agent.PlanState(), llm.WithRunID("trip-42"))
//
//	page := review.New(planner, review.StoreRuns(planner),
//		review.WithAuthorize(authorize), // who is asking; none: loopback clients only
//		review.WithOnDecision(func(ctx context.Context, run *review.Run) {
//			if run.Status == llm.StatusApproved {
//				go planner.Resume(context.WithoutCancel(ctx), run.ID, llm.RoleTarget[travel.AgentState](agent))
//			}
//		}))
//	mux.Handle("/review/", http.StripPrefix("/review", page))
//
// The page lists the runs awaiting approval and shows each plan as a
// person reads it: the goal; every step with its action, the action's
// description from its doc comment, its arguments, the steps it depends
// on, and its precondition and effects as the role declares them; the
// result of symbolic verification and the critiques of the model's
// replies refused before the plan (llm.Plan.Refused); the steps rolegen
// inserted (llm.Step.Inserted), marked; and the plan graph. The person
// approves the plan, rejects it with a reason, removes steps, reorders
// them (buttons, or Alt+↑ and Alt+↓), and edits their arguments.
//
// # Edits are checked as the model's plan was
//
// The decision the page sends is an llm.Decision. Before it is sent, it
// is put through llm.Planner.CheckDecision, the code the approval gate of
// a run uses: each edited argument is decoded exactly as the action's
// generated PerformJSON will decode it and checked against the action's
// schema, and a changed plan is verified again from the state it was
// made for. A refusal is shown where it belongs: an llm.ValidationError
// at the argument its JSON Pointer names, an llm.VerificationError at
// its step with the values of the fields its precondition reads. Nothing
// is decided, and nothing runs, until the person approves a plan that
// passes. "Check the edits" runs the checks without deciding.
//
// # Where runs come from
//
// A Runs lists the runs awaiting approval, reads one, and records a
// decision. StoreRuns serves an llm.Store that lists runs
// (llm.RunLister: FileStore and MemoryStore do; for a store of your own,
// answer ListRuns from each run's last checkpoint, an indexed status
// column in a database): plans come from Planner.Propose, decisions are
// recorded with Planner.Decide, and Planner.Resume runs an approved
// plan. The Temporal adapter (module github.com/rolegen/rolegen/temporal,
// Plans.ReviewRuns) serves workflows waiting for their approval update
// and sends the decision as that update. Implement Runs for anything
// else; its documentation says what it must guarantee.
//
// # Safe by default
//
//   - Everything the model wrote (goal, step ids, arguments, critiques)
//     and everything the role declares reaches the page through
//     html/template: a description "<script>…" shows as text. The page
//     loads nothing from elsewhere (no fonts, scripts or styles of a
//     CDN; it works offline), and its Content-Security-Policy says so to
//     the browser. Its one script is small and optional: without it,
//     moving a step asks the server.
//   - Every form carries a token bound to the browser's session cookie
//     and signed with the handler's key (WithCSRFKey for several
//     replicas), and forms a browser marks as sent from another site are
//     refused (http.CrossOriginProtection).
//   - WithAuthorize names the reviewer or refuses the request. Without
//     it, only loopback clients asking for a loopback host name are
//     answered (so DNS rebinding gets nothing either).
//   - A decision names the digest of the plan it was made on
//     (llm.Plan.Digest): a plan revised or decided meanwhile is refused
//     with "the plan changed since you looked", and the page shows the
//     plan awaiting approval now.
//   - Of two reviewers deciding at once, one decision is recorded; the
//     other reviewer is shown it. With StoreRuns the run's lock
//     (llm.RunLocker) makes it so, across processes; on Temporal the
//     workflow accepts one approval update.
package review
