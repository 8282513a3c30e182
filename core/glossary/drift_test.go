package glossary

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

// drift is a known second wording of a glossary term: the words that crept
// into the product beside the glossary's own (issue 21: "never two
// wordings of one thing").
type drift struct {
	id     ID       // the term the row protects
	words  string   // the second wording, as it appears in a literal
	fold   bool     // match words in any case (English)
	inside []string // glossary words that end right before words and make it the glossary's own: 指南+召回率
	also   ID       // another term the words may have meant, named in the message
}

// drifts is kept small and exact: each row is a wording that was found in
// the product, and the glossary's words never match their own row
// (TestDriftRowsSpareTheGlossary).
var drifts = []drift{
	// 运行库 is also Chinese for a runtime library; the glossary says 运行记录库.
	{id: RunStore, words: "运行库"},
	// Plain 召回率 is ambiguous between CuBE's guide recall and CoFE-RAG's
	// keyword recall; the glossary names both (see KeywordRecall).
	{id: GuideRecall, words: "召回率", inside: []string{"指南", "关键词"}, also: KeywordRecall},
	// Recall@k / recall@8 is guide recall@k without "guide".
	{id: GuideRecall, words: "recall@", fold: true, inside: []string{"guide "}},
	// Names TestForbiddenNames keeps out of the glossary, found in the product.
	{id: Judge, words: "评委"},
	{id: Interval95, words: "自助法"},
}

// contracts are literals that hold a row's words but reach no person: they
// are names a file is read or written by, which officers' workbooks already
// use. Each is one exact literal in one file.
var contracts = []struct{ file, literal, why string }{
	{"core/ingest/alias.go", "评委", "a scores-sheet header officers' workbooks use; the reader accepts it"},
	{"internal/scale/gen.go", "评委", "the header of the generated scores sheet, read back through that alias"},
}

func contract(file, literal string) bool {
	for _, c := range contracts {
		if c.file == file && c.literal == literal {
			return true
		}
	}
	return false
}

// find reports whether s holds the row's second wording.
func (d drift) find(s string) bool {
	_, ok := d.match(s)
	return ok
}

// match is the first second wording in s, as s spells it.
func (d drift) match(s string) (string, bool) {
	hay, needle := s, d.words
	if d.fold {
		hay, needle = strings.ToLower(s), strings.ToLower(d.words)
	}
	for from := 0; ; {
		i := strings.Index(hay[from:], needle)
		if i < 0 {
			return "", false
		}
		i += from
		own := false
		for _, p := range d.inside {
			if strings.HasSuffix(hay[:i], strings.ToLower(p)) {
				own = true
			}
		}
		if !own {
			return s[i : i+len(needle)], true
		}
		from = i + len(needle)
	}
}

// The test's own rules: what the matcher must and must not find.
func TestDriftFind(t *testing.T) {
	cases := []struct {
		s    string
		hits int // rows that match
	}{
		{"已完成的结果都保存在运行库 x.db 中", 1},
		{"已完成的结果都保存在运行记录库 x.db 中", 0},
		{"无法计算 Recall@k 和 CuBE", 1},
		{"Recall@%d = %.2f.", 1},
		{"so recall@8 cannot be computed", 1},
		{"Guide recall@%d", 0},
		{"guide recall@k and the subset", 0},
		{"召回率 Recall@8", 2},
		{"（不计入召回率）", 1},
		{"检索召回率 91.2 %", 1},
		{"指南召回率@8", 0},
		{"关键词召回率", 0},
		{"指南召回率@k 与召回率", 1}, // the second one
		{"recall", 0},       // CoFE's JSON key and CSV column
		{"recall_low", 0},
		{"大模型评委的分数", 1},
		{"配对自助法，重抽样 %d 次", 1},
	}
	for _, c := range cases {
		n := 0
		for _, d := range drifts {
			if d.find(c.s) {
				n++
			}
		}
		if n != c.hits {
			t.Errorf("%q: %d rows match, want %d", c.s, n, c.hits)
		}
	}
}

// Every row names a glossary term, and the glossary's own words (and
// GuideRecallAt's) never match a row.
func TestDriftRowsSpareTheGlossary(t *testing.T) {
	for _, d := range drifts {
		if !Known(d.id) || d.also != "" && !Known(d.also) {
			t.Errorf("row %q protects %s, which the glossary does not name", d.words, d.id)
		}
	}
	for _, id := range IDs() {
		for _, lang := range []text.Lang{text.ZH, text.EN} {
			for _, d := range drifts {
				if w := Term(id, lang); d.find(w) {
					t.Errorf("the glossary's %s %q matches the row %q", id, w, d.words)
				}
			}
		}
	}
	for _, d := range drifts {
		for _, w := range []string{GuideRecallAt(8, text.ZH), GuideRecallAt(8, text.EN), "Guide recall@8"} {
			if d.find(w) {
				t.Errorf("%q matches the row %q", w, d.words)
			}
		}
	}
}

// No string literal of the product's Go source holds a known second
// wording of a glossary term. Comments, struct tags and import paths are
// not read: they reach no person. Tests are not read: they may quote the
// old words to show they are gone.
func TestNoSecondWordings(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	files := 0
	used := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := e.Name()
		if e.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, lit := range personLiterals(f) {
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				continue
			}
			pos := fset.Position(lit.Pos())
			rel, _ := filepath.Rel(root, pos.Filename)
			if contract(filepath.ToSlash(rel), s) {
				used[filepath.ToSlash(rel)+" "+s] = true
				continue
			}
			for _, d := range drifts {
				if w, ok := d.match(s); ok {
					t.Errorf("%s:%d: %q in %q: %s", filepath.ToSlash(rel), pos.Line, w, clip(s), d.says())
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 200 {
		t.Fatalf("read %d Go files under %s: the walk lost the repository", files, root)
	}
	for _, c := range contracts {
		if !used[c.file+" "+c.literal] {
			t.Errorf("%s: no literal %q any more: drop it from contracts", c.file, c.literal)
		}
	}
}

// The window's own words (assets/i18n, a flat key → text map per language)
// hold no second wording either: they are what the officer reads most.
func TestNoSecondWordingsInWindow(t *testing.T) {
	dir := filepath.Join(moduleRoot(t), "assets", "i18n")
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(names) < 2 {
		t.Fatalf("the window's translations in %s: %v, %d files", dir, err, len(names))
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var words map[string]string
		if err := json.Unmarshal(b, &words); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		keys := slices.Sorted(maps.Keys(words))
		for _, key := range keys {
			for _, d := range drifts {
				if w, ok := d.match(words[key]); ok {
					t.Errorf("assets/i18n/%s %s: %q in %q: %s", filepath.Base(name), key, w, clip(words[key]), d.says())
				}
			}
		}
	}
}

// personLiterals are f's string literals but struct tags and import paths.
func personLiterals(f *ast.File) []*ast.BasicLit {
	skip := map[*ast.BasicLit]bool{}
	var out []*ast.BasicLit
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.Field:
			if x.Tag != nil {
				skip[x.Tag] = true
			}
		case *ast.BasicLit:
			if x.Kind == token.STRING && !skip[x] {
				out = append(out, x)
			}
		}
		return true
	})
	return out
}

// moduleRoot is the directory of go.mod above the package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the package")
		}
		dir = up
	}
}

// says names the glossary's words for the row.
func (d drift) says() string {
	s := fmt.Sprintf("the glossary's %s is %q / %q", d.id, Term(d.id, text.ZH), Term(d.id, text.EN))
	if d.also != "" {
		s += fmt.Sprintf(" (or, for the other thing, %s %q / %q)", d.also, Term(d.also, text.ZH), Term(d.also, text.EN))
	}
	return s
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
