package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"cubeworkbench/core/glossary"
)

// reportSources parses the package's non-test files.
func reportSources(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = f
	}
	if len(files) == 0 {
		t.Fatal("no source files found")
	}
	return fset, files
}

// literal is the value of a string literal or a sum of them.
func literal(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		a, ok1 := literal(x.X)
		b, ok2 := literal(x.Y)
		return a + b, ok1 && ok2 && x.Op == token.ADD
	case *ast.ParenExpr:
		return literal(x.X)
	}
	return "", false
}

// Text that reaches a person is a text.Text from the sheet's wording file,
// never an English/Chinese pair of literals inline (issue 21).
func TestNoInlineWordPairs(t *testing.T) {
	fset, files := reportSources(t)
	for name, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			lits := 0
			for _, a := range call.Args {
				if _, ok := literal(a); ok {
					lits++
				}
			}
			switch {
			case sel.Sel.Name == "t" && lits > 0:
				t.Errorf("%s: inline word pair %s.t(…): define a text.Text in the sheet's wording file", fset.Position(call.Pos()), types(sel.X))
			case sel.Sel.Name == "New" && types(sel.X) == "text" && lits > 0 && !strings.HasSuffix(name, "words.go"):
				t.Errorf("%s: text.New with literals outside a wording file (*words.go)", fset.Position(call.Pos()))
			}
			return true
		})
	}
}

func types(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// reportWords are the text.New(zh, en) literals of the wording files.
func reportWords(t *testing.T) []wordPair {
	fset, files := reportSources(t)
	var out []wordPair
	for name, f := range files {
		if !strings.HasSuffix(name, "words.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "New" || types(sel.X) != "text" {
				return true
			}
			zh, ok1 := literal(call.Args[0])
			en, ok2 := literal(call.Args[1])
			if ok1 && ok2 {
				out = append(out, wordPair{pos: fset.Position(call.Pos()).String(), zh: zh, en: en})
			}
			return true
		})
	}
	if len(out) < 100 {
		t.Fatalf("only %d word pairs found in the wording files", len(out))
	}
	return out
}

type wordPair struct{ pos, zh, en string }

// Every word of the report has both languages, and a thing the glossary
// names is named as the glossary does: the report never holds a second
// wording of a glossary term (it takes glossaryName(id) instead).
func TestReportWords(t *testing.T) {
	type term struct {
		id     glossary.ID
		zh, en string
	}
	byZH, byEN := map[string]term{}, map[string]term{}
	for _, id := range glossary.IDs() {
		tm := term{id, glossary.Term(id, "zh"), glossary.Term(id, "en")}
		byZH[tm.zh], byEN[number(strings.ToLower(tm.en))] = tm, tm
	}
	// Words that read like a glossary term but name another thing.
	otherThing := map[string]string{
		"不能说明": "an MFSS factor's column: what it cannot tell (not the comparison verdict 无法判断)",
		"评审":   "the prefix of a judge's own sheet name (评审 lexical), kept short for Excel's 31-character limit",
	}
	for _, p := range reportWords(t) {
		if _, ok := otherThing[strings.TrimSpace(p.zh)]; ok {
			continue
		}
		if p.zh == "" || p.en == "" {
			t.Errorf("%s: %q / %q: a language is empty", p.pos, p.zh, p.en)
			continue
		}
		zh, en := strings.TrimRight(p.zh, " ：:"), strings.ToLower(strings.TrimRight(p.en, " :"))
		tz, zok := byZH[zh]
		te, eok := byEN[number(en)]
		switch {
		case zok && tz.en == en:
			t.Errorf("%s: %q / %q is the glossary's %s: use glossaryName(id) or glossaryTerm(id)", p.pos, p.zh, p.en, tz.id)
		case zok && number(tz.en) != number(en):
			t.Errorf("%s: %q / %q: the glossary's %s is %q / %q (two wordings of one thing)", p.pos, p.zh, p.en, tz.id, tz.zh, tz.en)
		case eok && te.zh != zh:
			t.Errorf("%s: %q / %q: the glossary's %s is %q / %q (two wordings of one thing)", p.pos, p.zh, p.en, te.id, te.zh, te.en)
		}
	}
}

var plural = regexp.MustCompile(`s\b`)

// number drops English plural endings: a heading over many of a thing
// (Judges) and a column of one (System answer) name what the glossary
// names (judge, system answers).
func number(en string) string { return plural.ReplaceAllString(en, "") }
