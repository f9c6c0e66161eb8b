package fieldset

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMeet(t *testing.T) {
	assert.Equal(t, []int{3, 1}, Meet([]int{3, 2, 1}, []int{1, 3, 5}))
	assert.Empty(t, Meet([]int{1}, []int{2}))
	assert.Empty(t, Meet(nil, []int{2}))
}

func TestUnion(t *testing.T) {
	assert.Equal(t, []int{1, 2, 3, 5}, Union([]int{3, 1}, []int{5, 1}, nil, []int{2}))
	assert.Empty(t, Union())
}
