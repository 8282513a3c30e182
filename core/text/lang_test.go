package text_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wordingPackages are the packages whose words reach a person through
// every front end (and the session, the front ends' one door): their exported functions take a text.Lang (or return a
// text.Text), never a bare language string that each caller spells and
// compares its own way ("zh", "zh-CN", "ZH" …).
var wordingPackages = []string{"../glossary", "../result", "../explain", "../cube", "../session", ".",
	"../chart", "../brief", "../report", "../compare", "../mfss", "../dimension", "../querytype", "../aspect", "../dataset", "../../assets/i18n", "../../ui", "../../internal/cli",
	"../judge", "../llm", "../../prompts", "../generate", "../engine", "../targetcheck", "../judgepreset", "../docmatch", "../humancheck"}

// TestNoBareLangString reads the sources of the wording packages and fails
// on an exported function or method with a string parameter named for a
// language (lang, language, code of a language …).
func TestNoBareLangString(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range wordingPackages {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, path, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range bareLangParams(f) {
				t.Errorf("%s: %s takes a bare lang string; take a text.Lang or return a text.Text", fset.Position(bad.Pos()), bad.Name.Name)
			}
		}
	}
}

// bareLangParams are the exported funcs of f with a string parameter whose
// name says it is a language.
func bareLangParams(f *ast.File) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !fn.Name.IsExported() {
			continue
		}
		for _, p := range fn.Type.Params.List {
			if id, ok := p.Type.(*ast.Ident); !ok || id.Name != "string" {
				continue
			}
			for _, n := range p.Names {
				if l := strings.ToLower(n.Name); l == "lang" || l == "language" || strings.HasSuffix(l, "lang") {
					out = append(out, fn)
				}
			}
		}
	}
	return out
}

// TestBareLangParamsFires shows the scan finds what it looks for.
func TestBareLangParamsFires(t *testing.T) {
	src := `package p
func Term(id string, lang string) string { return "" }
func JudgeName(name, lang string) string { return "" }
func unexported(lang string) {}
func Fine(lang Lang) string { return "" }
type Lang string`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fn := range bareLangParams(f) {
		names = append(names, fn.Name.Name)
	}
	if strings.Join(names, ",") != "Term,JudgeName" {
		t.Errorf("found %v, want Term, JudgeName", names)
	}
}
