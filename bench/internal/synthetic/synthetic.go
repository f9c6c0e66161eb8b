// Package synthetic makes bench's synthetic role families, the roles that
// generators write rather than people (the wide roles of ../widegen,
// blocksworld with 6 and 8 blocks of ../blocksgen, and the random roles of
// ../randgen with and without a clock field), and the module in which
// their tests and benchmarks run.
//
// None of it is committed. Write makes a temporary module: each
// generator's output in a package of its own, rolegen's generated files
// beside it (gen.Generate and gen.Write, as go generate would run them),
// and the tests and benchmarks of testdata/ in the module's root package,
// with a constant benchDir, the bench module's directory, for the files
// of bench's testdata they read. The module requires bench and rolegen,
// both replaced by this checkout, with bench's requirement list and go.sum
// (internal/testmodule): the go command builds it without looking
// anything up.
//
// bench's TestSyntheticFamilies writes the module, checks that generating
// it again gives the same bytes, vets it and runs its tests. The command
// bench/tools/synthetic runs any go test command in it (the benchmarks),
// or writes it to a directory to keep.
package synthetic

import (
	"cmp"
	"context"
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/rolegen/rolegen/bench/internal/blocksgen"
	"github.com/rolegen/rolegen/bench/internal/randgen"
	"github.com/rolegen/rolegen/bench/internal/widegen"
	"github.com/rolegen/rolegen/gen"
	"github.com/rolegen/rolegen/internal/testmodule"
)

// Module is the path of the module Write makes. It lies under bench's
// path, so that its tests may import bench's internal packages.
const Module = "github.com/rolegen/rolegen/bench/synthetic"

// Bench is the bench module's path.
const Bench = "github.com/rolegen/rolegen/bench"

// Family is one package of generated roles.
type Family struct {
	// Name is the package's name and its directory in the module.
	Name string
	// Sources returns the generator's files, by file name.
	Sources func() (map[string][]byte, error)
}

// Families are the synthetic families, in the order Write writes them.
var Families = []Family{
	wide(10), wide(50), wide(200),
	blocks(6), blocks(8),
	random("randroles", false), random("randclock", true),
}

// blocks is blocksgen's blocksworld with n blocks.
func blocks(n int) Family {
	name := fmt.Sprintf("blocks%d", n)
	return Family{Name: name, Sources: func() (map[string][]byte, error) {
		src, err := blocksgen.Role(name, n)
		return map[string][]byte{"blocks.go": src}, err
	}}
}

// randomRoles is how many roles each random family has, and seed the
// seed they are drawn from.
const randomRoles, seed = 40, 1

// random is the roles of randgen, with a clock field or without.
func random(name string, clock bool) Family {
	return Family{Name: name, Sources: func() (map[string][]byte, error) {
		roles, err := randgen.Roles(name, randomRoles, seed, clock)
		if err != nil {
			return nil, err
		}
		list, err := randgen.Registry(name, randomRoles)
		return map[string][]byte{"roles.go": roles, "roles_list.go": list}, err
	}}
}

// wide is the role of widegen with n actions.
func wide(n int) Family {
	name := fmt.Sprintf("wide%d", n)
	return Family{Name: name, Sources: func() (map[string][]byte, error) {
		src, err := widegen.Role(name, n)
		return map[string][]byte{"role.go": src}, err
	}}
}

// tests are the tests and benchmarks of the families, the module's root
// package.
//
//go:embed testdata/*.go
var tests embed.FS

// Write makes dir, which must be empty or absent, the root of the
// families' module, with rolegen's generated files written. benchDir is
// the bench module's directory; its parent is rolegen's checkout.
//
// gen.Generate runs the go command in the process's environment: call
// Write with the variables of Environ set.
func Write(ctx context.Context, dir, benchDir string) error {
	benchDir, err := filepath.Abs(benchDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) > 0 {
		return cmp.Or(err, fmt.Errorf("synthetic: %s is not empty", dir))
	}
	local := testmodule.Local{Path: Bench, Dir: benchDir}
	if err := testmodule.Write(dir, Module, filepath.Dir(benchDir), benchDir, local); err != nil {
		return err
	}
	if err := writeFamilies(dir); err != nil {
		return err
	}
	if err := writeTests(dir, benchDir); err != nil {
		return err
	}
	files, err := Generate(ctx, dir)
	if err != nil {
		return err
	}
	_, err = gen.Write(files)
	return err
}

// writeFamilies writes each family's generator output in its package.
func writeFamilies(dir string) error {
	for _, f := range Families {
		srcs, err := f.Sources()
		if err != nil {
			return fmt.Errorf("synthetic: %s: %w", f.Name, err)
		}
		pkg := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			return err
		}
		for name, src := range srcs {
			if err := os.WriteFile(filepath.Join(pkg, name), src, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeTests copies the tests and benchmarks into the module's root, and
// writes benchDir there.
func writeTests(dir, benchDir string) error {
	entries, err := tests.ReadDir("testdata")
	if err != nil {
		return err
	}
	for _, e := range entries {
		src, err := tests.ReadFile("testdata/" + e.Name())
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), src, 0o644); err != nil {
			return err
		}
	}
	paths := fmt.Sprintf("// Code generated by bench/internal/synthetic. DO NOT EDIT.\n\n"+
		"package synthetic\n\n// benchDir is the bench module's directory.\nconst benchDir = %s\n", strconv.Quote(benchDir))
	return os.WriteFile(filepath.Join(dir, "benchdir_test.go"), []byte(paths), 0o644)
}

// Generate returns rolegen's generated files for every package of the
// module in dir, as Write writes them.
func Generate(ctx context.Context, dir string) ([]gen.File, error) {
	return gen.Generate(ctx, gen.Options{Dir: dir}, "./...")
}

// Environ is the environment of the go commands run in the module, as
// KEY=VALUE: testmodule's (the go.mod as written, no workspace), and
// -trimpath, with which the build cache does not key the module's
// packages by their directory, so that a module written again elsewhere
// reuses what an earlier one compiled (rolegen's own load compiles them
// too: go list -export).
var Environ = []string{"GOFLAGS=-mod=readonly -trimpath", "GOWORK=off"}

// Command returns the go command with args, to run in the module in dir
// with Environ.
func Command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), Environ...)
	return cmd
}
