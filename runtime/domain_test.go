package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolegen/rolegen/runtime"
)

func TestFirstUnsatisfied(t *testing.T) {
	d := foragerDomain()
	all := []runtime.GoalID{foragerFed, foragerRested, foragerAtHome}
	s := forager{Food: 12, Energy: 20, Home: false} // Fed holds; Rested and AtHome fail

	assert.Equal(t, foragerRested, d.FirstUnsatisfied(all, s), "the first that fails, in the order given")
	assert.Equal(t, foragerAtHome, d.FirstUnsatisfied([]runtime.GoalID{foragerAtHome, foragerRested}, s))
	assert.Equal(t, runtime.NoGoal, d.FirstUnsatisfied([]runtime.GoalID{foragerFed}, s))
	assert.Equal(t, runtime.NoGoal, d.FirstUnsatisfied(nil, s), "no goals: none fails")
	assert.Equal(t, runtime.NoGoal, d.FirstUnsatisfied(all, forager{Food: 10, Energy: 51, Home: true}))
}
