package exprlang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar has one struct per precedence level, lowest first, as Go
// orders them: || then && then comparisons then + - then * / % then unary
// operators. Repetition ({ op operand }) instead of left recursion keeps the
// grammar LL; the conversion to the AST makes the operators left-associative.

type gCond struct {
	Left  *gAnd    `parser:"@@"`
	Right []*gOrOp `parser:"@@*"`
}

type gOrOp struct {
	Pos   lexer.Position
	Op    string `parser:"@'||'"`
	Right *gAnd  `parser:"@@"`
}

type gAnd struct {
	Left  *gCmp     `parser:"@@"`
	Right []*gAndOp `parser:"@@*"`
}

type gAndOp struct {
	Pos   lexer.Position
	Op    string `parser:"@'&&'"`
	Right *gCmp  `parser:"@@"`
}

// gCmp allows one comparison: Go does not chain them either (a < b < c
// compares a bool with c).
type gCmp struct {
	Left  *gSum   `parser:"@@"`
	Right *gCmpOp `parser:"@@?"`
}

type gCmpOp struct {
	Pos   lexer.Position
	Op    string `parser:"@('==' | '!=' | '>=' | '<=' | '>' | '<')"`
	Right *gSum  `parser:"@@"`
}

type gSum struct {
	Left  *gProd    `parser:"@@"`
	Right []*gSumOp `parser:"@@*"`
}

type gSumOp struct {
	Pos   lexer.Position
	Op    string `parser:"@('+' | '-')"`
	Right *gProd `parser:"@@"`
}

type gProd struct {
	Left  *gUnary    `parser:"@@"`
	Right []*gProdOp `parser:"@@*"`
}

type gProdOp struct {
	Pos   lexer.Position
	Op    string  `parser:"@('*' | '/' | '%')"`
	Right *gUnary `parser:"@@"`
}

type gUnary struct {
	Pos     lexer.Position
	Op      string    `parser:"  ( @('!' | '-')"`
	X       *gUnary   `parser:"    @@ )"`
	Primary *gPrimary `parser:"| @@"`
}

type gPrimary struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Float  *string   `parser:"  @Float"`
	Int    *string   `parser:"| @Int"`
	String *string   `parser:"| @String"`
	Bool   *gBoolean `parser:"| @('true' | 'false')"`
	Qual   *gQual    `parser:"| @@"`
	Ident  *string   `parser:"| @Ident"`
	Sub    *gCond    `parser:"| '(' @@ ')'"`
}

// gQual is a qualified name, PKG.NAME: a constant of another package
// (time.Hour).
type gQual struct {
	Pkg  string `parser:"@Ident '.'"`
	Name *gName `parser:"@@"`
}

type gName struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

// gBoolean captures true and false; a plain bool field would be set to true
// by any match, "false" included.
type gBoolean bool

func (b *gBoolean) Capture(values []string) error {
	*b = values[0] == "true"
	return nil
}

type gEffects struct {
	List []*gEffect `parser:"@@ ( ',' @@ )*"`
}

type gEffect struct {
	Pos   lexer.Position
	Field string     `parser:"@Ident"`
	Op    *gAssignOp `parser:"@@"`
	Value *gCond     `parser:"@@?"`
}

type gAssignOp struct {
	Pos lexer.Position
	Op  string `parser:"@('=' | '+=' | '-=' | '++' | '--')"`
}

var (
	condParser = participle.MustBuild[gCond](
		participle.Lexer(lexerDef),
		participle.Elide("Whitespace"),
		participle.UseLookahead(2),
	)
	effectsParser = participle.MustBuild[gEffects](
		participle.Lexer(lexerDef),
		participle.Elide("Whitespace"),
		participle.UseLookahead(2),
	)
)
