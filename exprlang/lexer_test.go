package exprlang

import (
	"testing"

	"github.com/stretchr/testify/require"
)

type lexed struct{ Type, Value string }

func lexAll(t *testing.T, src string) []lexed {
	t.Helper()
	lx, err := lexerDef.Lex("", stringsReader(src))
	require.NoError(t, err)
	names := map[int]string{}
	for name, typ := range lexerDef.Symbols() {
		names[int(typ)] = name
	}
	var out []lexed
	for {
		tok, err := lx.Next()
		require.NoError(t, err, src)
		if tok.EOF() {
			return out
		}
		if names[int(tok.Type)] == "Whitespace" {
			continue
		}
		out = append(out, lexed{names[int(tok.Type)], tok.Value})
	}
}

func TestLexerLongestOperatorsFirst(t *testing.T) {
	got := lexAll(t, "a>=b<=c==d!=e&&f||g>h<i")
	want := []lexed{
		{"Ident", "a"}, {"Op", ">="}, {"Ident", "b"}, {"Op", "<="}, {"Ident", "c"},
		{"Op", "=="}, {"Ident", "d"}, {"Op", "!="}, {"Ident", "e"}, {"Op", "&&"},
		{"Ident", "f"}, {"Op", "||"}, {"Ident", "g"}, {"Op", ">"}, {"Ident", "h"},
		{"Op", "<"}, {"Ident", "i"},
	}
	require.Equal(t, want, got)
}

func TestLexerEffectOperators(t *testing.T) {
	got := lexAll(t, "A++, B--, C += 1, D -= 2, E = 3")
	want := []lexed{
		{"Ident", "A"}, {"Op", "++"}, {"Op", ","}, {"Ident", "B"}, {"Op", "--"}, {"Op", ","},
		{"Ident", "C"}, {"Op", "+="}, {"Int", "1"}, {"Op", ","},
		{"Ident", "D"}, {"Op", "-="}, {"Int", "2"}, {"Op", ","},
		{"Ident", "E"}, {"Op", "="}, {"Int", "3"},
	}
	require.Equal(t, want, got)
}

func TestLexerNumbersAndStrings(t *testing.T) {
	got := lexAll(t, `1 1.5 .5 2. 1e3 1_000 'it\'s' "say \"hi\"" Größe _x1`)
	want := []lexed{
		{"Int", "1"}, {"Float", "1.5"}, {"Float", ".5"}, {"Float", "2."}, {"Float", "1e3"},
		{"Int", "1_000"}, {"String", `'it\'s'`}, {"String", `"say \"hi\""`},
		{"Ident", "Größe"}, {"Ident", "_x1"},
	}
	require.Equal(t, want, got)
}

func TestLexerRejectsStrayCharacters(t *testing.T) {
	for _, src := range []string{"a & b", "a | b", "'open", "a # b"} {
		lx, err := lexerDef.Lex("", stringsReader(src))
		require.NoError(t, err)
		var lexErr error
		for lexErr == nil {
			tok, err := lx.Next()
			if err != nil {
				lexErr = err
				break
			}
			if tok.EOF() {
				break
			}
		}
		require.Error(t, lexErr, src)
	}
}
