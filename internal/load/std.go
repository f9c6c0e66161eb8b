package load

import (
	"cmp"
	"context"
	"go/types"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// Std finds standard-library packages by name, for the qualified names
// of conditions whose package the role's file does not import
// (time.Hour in a directive, with no import "time"): goimports resolves
// such a name the same way. The standard library is listed once, on first
// use, and each package's types are loaded once, from export data. It is
// safe for concurrent use.
type Std struct {
	ctx context.Context
	dir string

	listOnce sync.Once
	byName   map[string][]string // import paths, best first
	names    []string

	mu     sync.Mutex
	loaded map[string]*types.Package // nil for a package that failed to load
}

// NewStd returns a Std that runs the go command in dir.
func NewStd(ctx context.Context, dir string) *Std {
	return &Std{ctx: ctx, dir: dir, loaded: map[string]*types.Package{}}
}

// Packages returns the standard-library packages named name, best first:
// fewer path elements, then alphabetical (math/rand before
// math/rand/v2). Internal and vendored packages are not importable and
// are left out.
func (s *Std) Packages(name string) []*types.Package {
	s.list()
	paths := s.byName[name]
	if len(paths) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var missing []string
	for _, p := range paths {
		if _, ok := s.loaded[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		s.load(missing)
	}
	var out []*types.Package
	for _, p := range paths {
		if t := s.loaded[p]; t != nil {
			out = append(out, t)
		}
	}
	return out
}

// Names returns every importable standard-library package name, sorted.
func (s *Std) Names() []string {
	s.list()
	return s.names
}

// load loads the types of paths into s.loaded; s.mu is held.
func (s *Std) load(paths []string) {
	cfg := &packages.Config{Context: s.ctx, Dir: s.dir, Mode: packages.NeedName | packages.NeedTypes}
	pkgs, err := packages.Load(cfg, paths...)
	for _, p := range paths {
		s.loaded[p] = nil
	}
	if err != nil {
		return
	}
	for _, p := range pkgs {
		if len(p.Errors) == 0 && p.Types != nil {
			s.loaded[p.PkgPath] = p.Types
		}
	}
}

func (s *Std) list() {
	s.listOnce.Do(func() {
		s.byName = map[string][]string{}
		cfg := &packages.Config{Context: s.ctx, Dir: s.dir, Mode: packages.NeedName}
		pkgs, err := packages.Load(cfg, "std")
		if err != nil {
			return
		}
		for _, p := range pkgs {
			if !importable(p.PkgPath) || p.Name == "main" {
				continue
			}
			s.byName[p.Name] = append(s.byName[p.Name], p.PkgPath)
		}
		for name, paths := range s.byName {
			slices.SortFunc(paths, func(a, b string) int {
				return cmp.Or(cmp.Compare(strings.Count(a, "/"), strings.Count(b, "/")), strings.Compare(a, b))
			})
			s.names = append(s.names, name)
		}
		slices.Sort(s.names)
	})
}

// importable reports whether a standard-library path may be imported from
// outside the standard library.
func importable(path string) bool {
	if strings.HasPrefix(path, "vendor/") {
		return false
	}
	for _, elem := range strings.Split(path, "/") {
		if elem == "internal" {
			return false
		}
	}
	return true
}
