package gen_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolegen/rolegen/gen"
	"github.com/rolegen/rolegen/internal/testmodule"
	"github.com/rolegen/rolegen/runtime/rolegenimpl"
)

// TestGeneratedFileChecksItsVersion: a generated file states the version
// of the rolegen that wrote it. It builds against this runtime; as
// written by an older rolegen (below rolegenimpl.MinVersion) or a newer
// one (above MaxVersion), it stops the build at its check, with a message
// that names the remedy, and not at whichever call changed.
func TestGeneratedFileChecksItsVersion(t *testing.T) {
	dir := newModule(t, "example.com/version")
	writeFile(t, filepath.Join(dir, "soldier", "soldier.go"), `package soldier

type Soldier struct {
	Ammo int `+"`plan:\"state\"`"+`

	Armed struct{} `+"`plan:\"goal=Ammo > 10\"`"+`
}

//plan:action post="Ammo = 30"
func (s *Soldier) Reload() {}
`)
	files, err := gen.Generate(context.Background(), gen.Options{Dir: dir}, "./...")
	require.NoError(t, err)
	require.Len(t, files, 1)
	src := files[0].Content
	check := func(v int) []byte {
		return fmt.Appendf(nil, "_ = rolegenimpl.GoGenerateAgain(%d - rolegenimpl.MinVersion)\n\t_ = rolegenimpl.RequireNewerRolegen(rolegenimpl.MaxVersion - %d)\n", v, v)
	}
	current := check(rolegenimpl.MaxVersion)
	require.Contains(t, string(src), string(current))
	_, err = gen.Write(files)
	require.NoError(t, err)
	goCmd(t, dir, "build", "./...")

	for _, c := range []struct {
		version int
		want    string
	}{
		{rolegenimpl.MinVersion - 1, "soldier_plan.go:15:34: constant -1 overflows rolegenimpl.GoGenerateAgain"},
		{rolegenimpl.MaxVersion + 1, "soldier_plan.go:16:38: constant -1 overflows rolegenimpl.RequireNewerRolegen"},
	} {
		require.NoError(t, os.WriteFile(files[0].Path, bytes.Replace(src, current, check(c.version), 1), 0o644))
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir, cmd.Env = dir, testmodule.Env()
		out, err := cmd.CombinedOutput()
		require.Error(t, err, "a file of version %d builds", c.version)
		assert.Contains(t, string(out), c.want, "version %d", c.version)
	}
}
