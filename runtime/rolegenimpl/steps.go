package rolegenimpl

import (
	"context"
	"fmt"

	"github.com/rolegen/rolegen/runtime"
)

// RunSteps runs an action that takes ticks to its end, one call after the
// other, as a generated Perform does for runtime.Think and package llm,
// which expect an action to have finished when Perform returns: it
// returns nil once step returns runtime.Done, an error matching
// runtime.ErrActionFailed once it returns runtime.Failed (or step's own
// error), and ctx's error when ctx is done first, after a last call with
// runtime.Step.Interrupted set (none when ctx is done before the first).
func RunSteps(ctx context.Context, role, action string, step func(runtime.Step) (runtime.Status, error)) error {
	if err := ctx.Err(); err != nil {
		return err // not begun: nothing to stop
	}
	for t := (runtime.Step{}); ; t.Ticks++ {
		if t.Ticks > 0 {
			if err := ctx.Err(); err != nil {
				t.Interrupted = true
				_, _ = step(t)
				return err
			}
		}
		st, err := step(t)
		switch {
		case err != nil:
			return err
		case st == runtime.Done:
			return nil
		case st == runtime.Failed:
			return fmt.Errorf("rolegen: %s.%s: %w", role, action, runtime.ErrActionFailed)
		}
	}
}
