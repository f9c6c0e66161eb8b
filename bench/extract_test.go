package bench

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/bench/internal/reflecteval"
	"github.com/rolegen/rolegen/bench/internal/survivor"
)

var (
	stateSink survivor.SurvivorState
	mapSink   map[string]any
)

// BenchmarkExtract reads the survivor's nine state fields: generated is
// (*Survivor).PlanState, reflection reads the plan:"state" fields through
// reflect into a fresh map[string]any (the fields found once, by
// NewExtractor).
func BenchmarkExtract(b *testing.B) {
	roles := survivor.Survivors(256, 1)
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			stateSink = roles[i&255].PlanState()
			i++
		}
	})
	b.Run("reflection", func(b *testing.B) {
		e := reflecteval.NewExtractor(reflect.TypeFor[survivor.Survivor]())
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			mapSink = e.Extract(roles[i&255])
			i++
		}
	})
}

// Both extractions read the same fields and values.
func TestExtractAgrees(t *testing.T) {
	e := reflecteval.NewExtractor(reflect.TypeFor[survivor.Survivor]())
	names := make([]string, 0)
	for _, f := range survivor.SurvivorDomain.Fields {
		names = append(names, f.Name)
	}
	require.Equal(t, names, e.Fields())
	for _, r := range survivor.Survivors(100, 3) {
		got := e.Extract(r)
		want := reflect.ValueOf(r.PlanState())
		for i, name := range names {
			require.Equal(t, want.Field(i).Interface(), got[name], name)
		}
	}
}
