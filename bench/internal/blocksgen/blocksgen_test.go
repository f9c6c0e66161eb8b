package blocksgen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSizes(t *testing.T) {
	for _, c := range []struct{ n, facts, actions int }{{6, 49, 72}, {8, 81, 128}} {
		src, err := Role("p", c.n)
		require.NoError(t, err)
		s := string(src)
		assert.Equal(t, c.facts, strings.Count(s, "`plan:\"state\"`"), "facts for %d blocks", c.n)
		assert.Equal(t, c.actions, strings.Count(s, "//plan:action "), "actions for %d blocks", c.n)
	}
}
