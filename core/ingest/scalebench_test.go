package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	scalebook "cubeworkbench/internal/scale"
)

// BenchmarkOpenScaleBook reads internal/scale's generated workbook (the
// one `cubectl evaluate BIG.xlsx` reads at 100,000 questions: questions,
// three answers, references, retrieved lists; 2,000 guides), by default
// at 20,000 questions (CUBE_INGEST_ITEMS sets another size), with the
// sheets' XML decoded on a goroutine of its own (piped, what Open does) and
// on the loader's (plain), for a ratio within one run:
//
//	go test -run '^$' -bench OpenScaleBook -benchmem ./core/ingest
func BenchmarkOpenScaleBook(b *testing.B) {
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("CUBE_INGEST_ITEMS")); err == nil && v > 0 {
		n = v
	}
	path := filepath.Join(b.TempDir(), "scale.xlsx")
	if _, err := scalebook.WriteBook(path, scalebook.Book{Items: n, Guides: 2000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	for _, piped := range []bool{true, false} {
		name := map[bool]string{true: "piped", false: "plain"}[piped]
		b.Run(name, func(b *testing.B) {
			old := pipeSheets
			pipeSheets = piped
			defer func() { pipeSheets = old }()
			b.ReportAllocs()
			for b.Loop() {
				wb, rep, err := Open(context.Background(), path, Options{})
				if err != nil || rep.HasErrors() || len(wb.Items) != n {
					b.Fatalf("%d items, %v %+v", len(wb.Items), err, rep)
				}
			}
		})
	}
}
