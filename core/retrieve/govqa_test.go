package retrieve

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/chunk"
	"cubeworkbench/core/embed"

	"cubeworkbench/internal/shareddata"
)

// govQA is the real Chinese government Q&A corpus of /work/shared/data
// (sheet 政务问答): each row's 正文内容 is a document, 用户问题 its question.
type govQA struct {
	ids       []string // doc id = "r" + 1-based sheet row
	skipped   int      // data rows without a question or a text
	texts     []string
	questions []string
	canon     map[string]string // doc id → id of the first row with identical text
}

func loadGovQA(tb testing.TB) *govQA {
	tb.Helper()
	path := shareddata.Path(tb, "msgabench", "gov_qa.xlsx")
	f, err := excelize.OpenFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rows, err := f.Rows("政务问答")
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	g := &govQA{canon: map[string]string{}}
	first := map[string]string{}
	qCol, tCol, row := -1, -1, 0
	for rows.Next() {
		row++
		cols, err := rows.Columns()
		if err != nil {
			tb.Fatal(err)
		}
		if row == 1 {
			for i, c := range cols {
				switch strings.TrimSpace(c) {
				case "用户问题":
					qCol = i
				case "正文内容":
					tCol = i
				}
			}
			if qCol < 0 || tCol < 0 {
				tb.Fatalf("header %q lacks 用户问题/正文内容", cols)
			}
			continue
		}
		if len(cols) <= max(qCol, tCol) || strings.TrimSpace(cols[qCol]) == "" || strings.TrimSpace(cols[tCol]) == "" {
			g.skipped++
			continue
		}
		id := fmt.Sprintf("r%d", row)
		text := cols[tCol]
		g.ids, g.texts, g.questions = append(g.ids, id), append(g.texts, text), append(g.questions, cols[qCol])
		if _, ok := first[text]; !ok {
			first[text] = id
		}
		g.canon[id] = first[text]
	}
	return g
}

func (g *govQA) chunks(c chunk.Chunker) []chunk.Chunk {
	var out []chunk.Chunk
	for i, id := range g.ids {
		out = append(out, c.Chunk(id, g.texts[i])...)
	}
	return out
}

// recallAt gives doc-level Recall@k for each k: the gold document (or any
// document with identical text) among the first k distinct documents of the
// ranked chunks.
func (g *govQA) recallAt(tb testing.TB, r Retriever, ks []int) []float64 {
	tb.Helper()
	hitsAt := make([]int, len(ks))
	for i, q := range g.questions {
		hits, err := r.Search(context.Background(), q, 100)
		if err != nil {
			tb.Fatal(err)
		}
		gold := g.canon[g.ids[i]]
		for rank, d := range Docs(hits) {
			if g.canon[d] == gold {
				for j, k := range ks {
					if rank < k {
						hitsAt[j]++
					}
				}
				break
			}
		}
	}
	out := make([]float64, len(ks))
	for j := range ks {
		out[j] = float64(hitsAt[j]) / float64(len(g.questions))
	}
	return out
}

// TestGovQARecall measures doc-level recall on the real corpus for every
// chunker × retriever. Run: go test ./core/retrieve -run GovQA -v
// Floors are loose bounds below what was measured (see the report).
func TestGovQARecall(t *testing.T) {
	if testing.Short() {
		t.Skip("real-corpus recall table: not in -short")
	}
	g := loadGovQA(t)
	distinct := map[string]bool{}
	for _, c := range g.canon {
		distinct[c] = true
	}
	t.Logf("gov_qa 政务问答: %d questions (%d rows skipped: no question or text), %d distinct document texts (a hit on any row with identical text counts)",
		len(g.ids), g.skipped, len(distinct))
	chunkers := []chunk.Chunker{chunk.FixedTokens(128, 25), chunk.FixedTokens(256, 50), chunk.FixedTokens(512, 100), chunk.SentencePack(256), chunk.PerDocument()}
	floors := map[string][3]float64{ // retriever → floors of R@1, R@5, R@10 for every chunker
		// measured: bm25 ≥ 0.546/0.787/0.859, dense ≥ 0.466/0.717/0.803, hybrid ≥ 0.526/0.776/0.857
		NameBM25: {0.50, 0.75, 0.82}, NameDense: {0.42, 0.68, 0.76}, NameHybrid: {0.48, 0.73, 0.82},
	}
	ks := []int{1, 5, 10}
	t.Logf("%-14s %-8s %7s %8s %8s %8s %9s", "chunker", "retr.", "chunks", "R@1", "R@5", "R@10", "seconds")
	for _, c := range chunkers {
		cs := g.chunks(c)
		for _, name := range []string{NameBM25, NameDense, NameHybrid} {
			start := time.Now()
			r, _, err := New(context.Background(), name, cs, embed.NewHashed())
			if err != nil {
				t.Fatal(err)
			}
			rec := g.recallAt(t, r, ks)
			t.Logf("%-14s %-8s %7d %8.4f %8.4f %8.4f %9.1f", c.Name(), name, len(cs), rec[0], rec[1], rec[2], time.Since(start).Seconds())
			for j, f := range floors[name] {
				if rec[j] < f {
					t.Errorf("%s %s: R@%d = %.4f below floor %.2f", c.Name(), name, ks[j], rec[j], f)
				}
			}
			if !(rec[0] <= rec[1] && rec[1] <= rec[2]) {
				t.Errorf("%s %s: recall not monotone in k: %v", c.Name(), name, rec)
			}
		}
	}
}
