package check

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/rolegen/rolegen/internal/annot"
	"github.com/rolegen/rolegen/internal/genfile"
	"github.com/rolegen/rolegen/internal/suggest"
)

// Annotated reports whether the parsed files hold anything Package reads
// on its own: a //plan: comment, a rolegen-generated file, or a struct
// type declared at package level with a plan tag, a tag key one edit
// from plan, or a malformed tag. It needs no types, so that a driver that
// gives syntax alone can skip, at the cost of a walk over the
// declarations, the packages (most of them) where there is nothing to
// check.
//
// A package without any of these can still hold a role: a struct that
// only embeds roles of other packages. Package checks such a role (the
// embedded roles' mistakes, reported again at the embedding field, and
// its generated names); Annotated does not see it until the role's file
// is generated.
func Annotated(files []*ast.File) bool {
	for _, f := range files {
		if genfile.IsGenerated(f) {
			return true
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, annot.DirectivePrefix) {
					return true
				}
			}
		}
		for _, decl := range f.Decls {
			if d, ok := decl.(*ast.GenDecl); ok && d.Tok == token.TYPE && structTagsAnnotated(d) {
				return true
			}
		}
	}
	return false
}

// structTagsAnnotated reports whether a type declaration declares a
// struct with a tag that Package reads or reports.
func structTagsAnnotated(d *ast.GenDecl) bool {
	for _, spec := range d.Specs {
		st, ok := spec.(*ast.TypeSpec).Type.(*ast.StructType)
		if !ok {
			continue
		}
		for _, fld := range st.Fields.List {
			if fld.Tag != nil && tagAnnotated(fld.Tag.Value) {
				return true
			}
		}
	}
	return false
}

func tagAnnotated(lit string) bool {
	tag, err := strconv.Unquote(lit)
	if err != nil {
		return true
	}
	pairs, err := annot.TagPairs(annot.NewText(tag, token.NoPos))
	if err != nil {
		return true
	}
	for _, p := range pairs {
		if p.Key.S == "plan" {
			return true
		}
		if _, near := suggest.Closest(p.Key.S, []string{"plan"}); near {
			return true
		}
	}
	return false
}
