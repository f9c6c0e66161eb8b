package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
)

// The cheapest plans of the written roles' (start, goal) pairs that A*
// at its defaults does not plan within its budget, searched for once
// with a budget forty times as large (go test -run TestWrittenReferences
// -update) and kept in testdata: without them the written roles would be
// measured only on the pairs A* finds easy, and the chainer's plans of
// the others, often its longest, would go unjudged.

// writtenRefsFile holds the references, one pair a line: the role, the
// start's index in its set, the goal's name, then the cheapest plan's
// cost and steps, "none" where the larger search proved that no plan
// within the step limit reaches the goal, or "unknown" where it ran out
// too.
var writtenRefsFile = filepath.Join("testdata", "written", "cheapest.txt")

// The larger search's limits.
const (
	writtenRefBudget = 400_000
	writtenRefStates = 2_000_000
)

// writtenRef is the cheapest plan of a pair (known), or that there is
// none within the step limit (none), or neither: the larger search ran
// out of its limits.
type writtenRef struct {
	known, none bool
	cost        float64
	steps       []string
}

// writtenRefs reads writtenRefsFile, keyed by writtenRefKey.
var writtenRefs = sync.OnceValues(func() (map[string]writtenRef, error) {
	f, err := os.Open(writtenRefsFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	refs := map[string]writtenRef{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		words := strings.Fields(sc.Text())
		if len(words) == 0 || strings.HasPrefix(words[0], "#") {
			continue
		}
		if len(words) < 4 {
			return nil, fmt.Errorf("%s:%d: want role, start, goal and cost", writtenRefsFile, n)
		}
		key := strings.Join(words[:3], " ")
		switch words[3] {
		case "unknown":
			refs[key] = writtenRef{}
			continue
		case "none":
			refs[key] = writtenRef{none: true}
			continue
		}
		cost, err := strconv.ParseFloat(words[3], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", writtenRefsFile, n, err)
		}
		refs[key] = writtenRef{known: true, cost: cost, steps: words[4:]}
	}
	return refs, sc.Err()
})

func writtenRefKey(role string, start int, goal string) string {
	return role + " " + strconv.Itoa(start) + " " + goal
}

// outOfBudget reports whether err is A*'s for a search that ran out of
// its budget or room before it found a plan or proved there is none.
func outOfBudget(err error) bool {
	return errors.Is(err, runtime.ErrSearchBudgetExceeded) || errors.Is(err, runtime.ErrMaxStatesExceeded)
}

// eachPair calls pair for every (start, goal) of the role whose goal
// fails in the start, with A*'s plan at its defaults (valid until pair
// returns) and its error.
func eachPair[S comparable](d *runtime.Domain[S], starts []S, pair func(i int, s S, g runtime.GoalID, p *runtime.Plan, err error) error) error {
	as := runtime.NewAStar(d)
	var p runtime.Plan
	for i, s := range starts {
		for g := range d.Goals {
			gid := runtime.GoalID(g)
			if d.Holds(gid, s) {
				continue
			}
			if err := pair(i, s, gid, &p, as.PlanGoalInto(context.Background(), s, gid, &p)); err != nil {
				return err
			}
		}
	}
	return nil
}

// lookupRef returns the line of writtenRefsFile for key, or an error
// where the file has none.
func lookupRef(key string) (writtenRef, error) {
	refs, err := writtenRefs()
	if err != nil {
		return writtenRef{}, err
	}
	ref, ok := refs[key]
	if !ok {
		return writtenRef{}, fmt.Errorf("%s: no line for %s, which A* runs out of budget on (go test -run TestWrittenReferences -update)", writtenRefsFile, key)
	}
	return ref, nil
}

// writtenPairs calls pair for every (start, goal) of the role whose goal
// fails in the start and that A* at its defaults plans (the cheapest
// plan's cost and steps) or runs out of budget on (then with the
// reference: see writtenRef; an error where testdata has no line for
// the pair). The pairs A* or the reference proves out of reach within
// the step limit are left out.
func writtenPairs[S comparable](name string, d *runtime.Domain[S], starts []S, pair func(i int, s S, g runtime.GoalID, ref writtenRef) error) error {
	return eachPair(d, starts, func(i int, s S, g runtime.GoalID, p *runtime.Plan, err error) error {
		var ref writtenRef
		switch {
		case err == nil:
			ref = writtenRef{known: true, cost: p.Cost, steps: d.Names(p.Steps)}
		case outOfBudget(err):
			if ref, err = lookupRef(writtenRefKey(name, i, d.Goals[g].Name)); err != nil || ref.none {
				return err
			}
		default:
			return nil // A* proved the goal out of reach
		}
		return pair(i, s, g, ref)
	})
}

// referencesOf returns, for the role's pairs that A* at its defaults
// runs out of budget on, the lines of writtenRefsFile: searched for again
// with the larger limits when search is set, else checked, each known
// plan replayed from its start to the goal at its cost.
func referencesOf[S comparable](name string, d *runtime.Domain[S], starts []S, search bool) ([]string, error) {
	big := runtime.NewAStar(d, runtime.WithSearchBudget(writtenRefBudget), runtime.WithAStarMaxStates(writtenRefStates))
	var lines []string
	err := eachPair(d, starts, func(i int, s S, g runtime.GoalID, p *runtime.Plan, err error) error {
		if !outOfBudget(err) {
			return nil
		}
		key := writtenRefKey(name, i, d.Goals[g].Name)
		if search {
			switch err := big.PlanGoalInto(context.Background(), s, g, p); {
			case err == nil:
				lines = append(lines, key+" "+strconv.FormatFloat(p.Cost, 'g', -1, 64)+" "+strings.Join(d.Names(p.Steps), " "))
			case outOfBudget(err):
				lines = append(lines, key+" unknown")
			default:
				lines = append(lines, key+" none")
			}
			return nil
		}
		ref, err := lookupRef(key)
		if err != nil {
			return err
		}
		lines = append(lines, key)
		if !ref.known {
			return nil
		}
		steps := make([]runtime.ActionID, len(ref.steps))
		for j, n := range ref.steps {
			var ok bool
			if steps[j], ok = d.Action(n); !ok {
				return fmt.Errorf("%s: %s: no action %s", writtenRefsFile, key, n)
			}
		}
		end, err := d.Simulate(s, steps)
		if err != nil || !d.Holds(g, end) {
			return fmt.Errorf("%s: %s: the plan does not reach the goal: %v", writtenRefsFile, key, err)
		}
		if cost, err := d.PathCost(s, steps); err != nil || cost != ref.cost {
			return fmt.Errorf("%s: %s: the plan costs %g, not %g (%v)", writtenRefsFile, key, cost, ref.cost, err)
		}
		return nil
	})
	return lines, err
}

// TestWrittenReferences checks that writtenRefsFile has a line for every
// pair of the written roles that A* runs out of budget on, and no other,
// and that each of its plans reaches its goal at its cost; with -update it
// searches for them again and rewrites the file.
func TestWrittenReferences(t *testing.T) {
	t.Parallel()
	roles := writtenRoles()
	each := make([][]string, len(roles))
	t.Run("roles", func(t *testing.T) { // returns when every role's subtest has
		for i, r := range roles {
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				got, err := r.references(*update)
				require.NoError(t, err, r.name)
				each[i] = got
			})
		}
	})
	if t.Failed() {
		return
	}
	var lines []string
	for _, got := range each {
		lines = append(lines, got...)
	}
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(writtenRefsFile), 0o755))
		head := "# The written roles' pairs that A* at its defaults runs out of budget on, with\n" +
			"# the cheapest plan A* finds within " + strconv.Itoa(writtenRefBudget) + " expansions and " + strconv.Itoa(writtenRefStates) + " states\n" +
			"# (\"none\": no plan within the step limit; \"unknown\": it ran out), written by\n" +
			"# go test -run TestWrittenReferences -update.\n" +
			"# role, start, goal, cost, steps\n"
		require.NoError(t, os.WriteFile(writtenRefsFile, []byte(head+strings.Join(lines, "\n")+"\n"), 0o644))
		return
	}
	refs, err := writtenRefs()
	require.NoError(t, err)
	require.Len(t, refs, len(lines), "%s has lines for pairs A* now plans or proves out of reach (go test -run TestWrittenReferences -update)", writtenRefsFile)
}
