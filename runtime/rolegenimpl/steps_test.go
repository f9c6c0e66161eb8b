package rolegenimpl_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/runtime"
	"github.com/rolegen/rolegen/runtime/rolegenimpl"
)

// RunSteps calls a step until it is done or failed, and tells it when
// the context ends while it runs; a step not begun is not called.
func TestRunSteps(t *testing.T) {
	var seen []runtime.Step
	walk := func(st runtime.Status) func(runtime.Step) (runtime.Status, error) {
		return func(s runtime.Step) (runtime.Status, error) {
			seen = append(seen, s)
			if s.Ticks < 2 {
				return runtime.Running, nil
			}
			return st, nil
		}
	}
	require.NoError(t, rolegenimpl.RunSteps(t.Context(), "R", "Walk", walk(runtime.Done)))
	assert.Equal(t, []runtime.Step{{Ticks: 0}, {Ticks: 1}, {Ticks: 2}}, seen)
	assert.True(t, seen[0].First())
	assert.False(t, seen[1].First())

	err := rolegenimpl.RunSteps(t.Context(), "R", "Walk", walk(runtime.Failed))
	require.ErrorIs(t, err, runtime.ErrActionFailed)
	assert.Equal(t, "rolegen: R.Walk: action failed", err.Error())

	boom := errors.New("boom")
	err = rolegenimpl.RunSteps(t.Context(), "R", "Walk", func(runtime.Step) (runtime.Status, error) { return runtime.Running, boom })
	require.ErrorIs(t, err, boom)

	ctx, cancel := context.WithCancel(t.Context())
	seen = nil
	err = rolegenimpl.RunSteps(ctx, "R", "Walk", func(s runtime.Step) (runtime.Status, error) {
		seen = append(seen, s)
		cancel()
		return runtime.Running, nil
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []runtime.Step{{Ticks: 0}, {Ticks: 1, Interrupted: true}}, seen)

	seen = nil
	require.ErrorIs(t, rolegenimpl.RunSteps(ctx, "R", "Walk", walk(runtime.Done)), context.Canceled)
	assert.Empty(t, seen, "a step the context ended before is not begun")
	assert.Equal(t, "running", runtime.Running.String())
}
