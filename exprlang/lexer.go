package exprlang

import "github.com/alecthomas/participle/v2/lexer"

// lexerDef is the lexer of the language. Rules are tried in order and the
// first match wins, so longer operators come before their prefixes and
// decimals before integers.
var lexerDef = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
	{Name: "Float", Pattern: `(\d+(_\d+)*\.(\d+(_\d+)*)?|\.\d+(_\d+)*)([eE][+-]?\d+)?|\d+(_\d+)*[eE][+-]?\d+`},
	{Name: "Int", Pattern: `\d+(_\d+)*`},
	{Name: "String", Pattern: `'(\\.|[^'\\\n])*'|"(\\.|[^"\\\n])*"`},
	{Name: "Ident", Pattern: `[\p{L}_][\p{L}\p{Nd}_]*`},
	{Name: "Op", Pattern: `==|!=|>=|<=|&&|\|\||\+=|-=|\+\+|--|[-+*/%!<>=(),.]`},
})
