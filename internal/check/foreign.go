package check

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/rolegen/rolegen/internal/annot"
	"github.com/rolegen/rolegen/internal/genfile"
)

// ActionDecl is a method with //plan:action directives as its package
// declares it: what a role of another package that embeds its type needs
// to check it. It holds text only (no positions), so that it can travel
// as an analysis fact.
type ActionDecl struct {
	Method string
	// Doc is the method's doc comment.
	Doc string
	// Directives are the //plan:action comment lines, in order.
	Directives []string
}

// Actions returns, by receiver type name, the methods with //plan:action
// directives the files declare (rolegen's own files aside), in source
// order. Other //plan: directives, and directives on functions, are the
// declaring package's to report.
func Actions(files []*ast.File) map[string][]ActionDecl {
	out := map[string][]ActionDecl{}
	for _, f := range files {
		if genfile.IsGenerated(f) {
			continue
		}
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok || d.Doc == nil || d.Recv == nil || len(d.Recv.List) == 0 {
				continue
			}
			recv := embeddedIdent(d.Recv.List[0].Type)
			if recv == nil {
				continue
			}
			var dirs []string
			for _, cm := range d.Doc.List {
				if dir, ok := annot.ParseDirective(annot.NewText(cm.Text, token.NoPos)); ok && dir.Name.S == "action" {
					dirs = append(dirs, cm.Text)
				}
			}
			if len(dirs) > 0 {
				out[recv.Name] = append(out[recv.Name], ActionDecl{Method: d.Name.Name, Doc: strings.TrimSpace(d.Doc.Text()), Directives: dirs})
			}
		}
	}
	return out
}

// methodsOf returns the //plan:action methods declared on tn, reading
// them from Foreign when tn belongs to another package.
func (c *checker) methodsOf(tn *types.TypeName) []*methodDecl {
	if pkg := tn.Pkg(); pkg != nil && pkg != c.Pkg && c.Foreign != nil && !c.foreign[tn] {
		c.foreign[tn] = true
		for _, d := range c.Foreign(pkg)[tn.Name()] {
			obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, pkg, d.Method)
			fn, ok := obj.(*types.Func)
			if !ok || recvBase(fn) != tn {
				continue
			}
			var dirs []annot.Directive
			for _, text := range d.Directives {
				if dir, ok := annot.ParseDirective(annot.NewText(text, token.NoPos)); ok {
					dirs = append(dirs, dir)
				}
			}
			c.methods[tn] = append(c.methods[tn], c.method(fn, token.NoPos, token.NoPos, nil, d.Doc, dirs))
		}
	}
	return c.methods[tn]
}
