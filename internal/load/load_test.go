package load

import (
	"context"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/packages"
)

func TestMissingName(t *testing.T) {
	assert.Equal(t, "SoldierDomain", missingName("undefined: SoldierDomain"))
	assert.Equal(t, "PlanState", missingName("s.PlanState undefined (type *Soldier has no field or method PlanState)"))
	assert.Equal(t, "Perform", missingName("s.Perform undefined (type *Soldier has no field or method Perform, but does have field perform)"))
	assert.Equal(t, "", missingName(`cannot use "x" (untyped string constant) as int value`))
}

func TestFatalKeepsOtherErrors(t *testing.T) {
	p := &packages.Package{PkgPath: "example.com/p", Errors: []packages.Error{
		{Kind: packages.TypeError, Msg: "undefined: SoldierDomain"},
		{Kind: packages.TypeError, Msg: "undefined: Helper"},
		{Kind: packages.TypeError, Msg: "undefined: MedicState"},
		{Kind: packages.ListError, Msg: "# example.com/p\np.go:1:1: undefined: SoldierDomain"},
		{Kind: packages.ParseError, Msg: "expected ';'"},
	}}
	got := Fatal(p, map[string]bool{"SoldierDomain": true}, []string{"Medic"})
	assert.Equal(t, []packages.Error{
		{Kind: packages.TypeError, Msg: "undefined: Helper"},
		{Kind: packages.ParseError, Msg: "expected ';'"},
	}, got)
}

func TestStandardLibraryIsNotLoadedForRoles(t *testing.T) {
	assert.True(t, isStandard("sync"))
	assert.True(t, isStandard("net/http"))
	assert.False(t, isStandard("github.com/rolegen/rolegen/runtime"))
	assert.False(t, isStandard("myapp/units"), "a module path without a dot is not the standard library")
	syntax := Syntax(context.Background(), ".", token.NewFileSet(), nil)
	assert.Nil(t, syntax("sync"), "a role embedding sync.Mutex reads no directive there")
	assert.NotEmpty(t, syntax("github.com/rolegen/rolegen/internal/model"))
}
