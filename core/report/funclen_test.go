package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of this package may be, braces
// included: a sheet writer longer than a screen or two hides which row
// goes where. Split a long writer into a page model (what the sheet says,
// as NewPage builds the Summary's) and short writers of its parts.
const maxFuncLines = 120

// funcLengths is every function and method of the package's non-test files
// longer than max lines, as "file:line name (n lines)".
func funcLengths(t *testing.T, dir string, max int) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var long []string
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var body *ast.BlockStmt
			var name string
			switch fn := n.(type) {
			case *ast.FuncDecl:
				body, name = fn.Body, fn.Name.Name
			case *ast.FuncLit:
				body, name = fn.Body, "func literal"
			default:
				return true
			}
			if body == nil {
				return true
			}
			start, end := fset.Position(n.Pos()), fset.Position(body.End())
			if lines := end.Line - start.Line + 1; lines > max {
				long = append(long, filepath.Base(path)+":"+strconv.Itoa(start.Line)+" "+name+" ("+strconv.Itoa(lines)+" lines)")
			}
			return true
		})
	}
	return long
}

// No function of core/report is longer than maxFuncLines lines.
func TestFunctionsFitAScreen(t *testing.T) {
	for _, f := range funcLengths(t, ".", maxFuncLines) {
		t.Errorf("%s: longer than %d lines", f, maxFuncLines)
	}
}
