package engine

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/store"
	"cubeworkbench/core/target"
)

// recorder is an endpoint that remembers every prompt it was sent (the
// calls the run store did not answer). The generator's reply repeats the
// prompt's last line so a new question or guide makes a new answer; a
// judge's reply is a score.
type recorder struct {
	mu      sync.Mutex
	prompts map[string][]string // model → prompts
}

func (r *recorder) completer(ep profile.Endpoint) (llm.Completer, error) {
	return recorderModel{r, ep.Model}, nil
}

func (r *recorder) sent(model string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.prompts[model])
}

func (r *recorder) reset() {
	r.mu.Lock()
	r.prompts = nil
	r.mu.Unlock()
}

type recorderModel struct {
	r     *recorder
	model string
}

func (m recorderModel) Model() string { return m.model }

func (m recorderModel) Complete(_ context.Context, req llm.Request) (llm.Reply, error) {
	prompt := req.Messages[len(req.Messages)-1].Content
	m.r.mu.Lock()
	if m.r.prompts == nil {
		m.r.prompts = map[string][]string{}
	}
	m.r.prompts[m.model] = append(m.r.prompts[m.model], prompt)
	m.r.mu.Unlock()
	if m.model == "judge-model" {
		return llm.Reply{Content: `{"score": 7, "reason": "ok"}`}, nil
	}
	return llm.Reply{Content: "生成：" + strings.ReplaceAll(prompt, "\n", " ")}, nil
}

// askTarget answers "答：<question>" and retrieves the gold guide.
type askTarget struct {
	mu    sync.Mutex
	asked []string
	gold  map[string]string // question → guide id
}

func (a *askTarget) Kind() string { return "http" }

func (a *askTarget) Ask(_ context.Context, q string) (target.Answer, error) {
	a.mu.Lock()
	a.asked = append(a.asked, q)
	a.mu.Unlock()
	return target.Answer{Text: "答：" + q, Retrieved: []target.Doc{{ID: a.gold[q]}}}, nil
}

// Stored answers are bound to the request that produced them: a rewritten
// question is asked of the target again (and judged with the new answer),
// revised guides regenerate the full bounds, and answers of a store that
// predates fingerprints are not trusted — each said in a warning.
func TestStaleAnswersAreAskedAgain(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, wb *dataset.Workbook, st *store.Store)
		// wanted of the second run
		asked        func(wb *dataset.Workbook) []string // questions the target hears
		genFull      int                                 // full answers generated (new calls)
		genZero      int
		warnings     map[string]int // code/set → count in the warning text
		judgedAnswer string         // an answer text some judge prompt must hold
	}{
		{
			name: "rewritten question",
			change: func(_ *testing.T, wb *dataset.Workbook, _ *store.Store) {
				wb.Items[0].Question = "改写后的问题：第1号业务在哪里办？"
			},
			asked:        func(wb *dataset.Workbook) []string { return []string{wb.Items[0].Question} },
			genFull:      1,
			genZero:      1,
			warnings:     map[string]int{"stale_answers/rag": 1, "stale_answers/zero": 1, "stale_answers/full": 1},
			judgedAnswer: "答：改写后的问题：第1号业务在哪里办？",
		},
		{
			name: "revised guides",
			change: func(_ *testing.T, wb *dataset.Workbook, _ *store.Store) {
				for i := range wb.Guides {
					wb.Guides[i].Text += "\n修订：自2026年起可网上办理。"
				}
			},
			asked:        func(*dataset.Workbook) []string { return nil },
			genFull:      4,
			warnings:     map[string]int{"stale_answers/full": 4},
			judgedAnswer: "修订：自2026年起可网上办理。",
		},
		{
			name: "store without fingerprints",
			change: func(t *testing.T, _ *dataset.Workbook, st *store.Store) {
				as, err := st.Answers(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				for _, a := range as {
					a.Fingerprint = ""
					if err := st.PutAnswer(context.Background(), a); err != nil {
						t.Fatal(err)
					}
				}
			},
			asked: func(wb *dataset.Workbook) []string {
				var qs []string
				for _, it := range wb.Items {
					qs = append(qs, it.Question)
				}
				return qs
			},
			// bound answers come back from the response cache: no new call
			warnings: map[string]int{"stale_answers_legacy/rag": 4, "stale_answers_legacy/zero": 4, "stale_answers_legacy/full": 4},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := buildWorkbook(4)
			for i := range base.Items {
				base.Items[i].Answers = map[string]string{}
				base.Items[i].Retrieved = nil
			}
			rec := &recorder{}
			tg := &askTarget{gold: map[string]string{}}
			p := testProfile(profile.Endpoint{Name: "j", BaseURL: "http://judge.invalid/v1", Model: "judge-model"})
			p.Generator = &profile.Endpoint{Name: "gen", BaseURL: "http://gen.invalid/v1", Model: "gen-model"}
			p.Target = &profile.Target{Kind: "http", BaseURL: "http://rag.invalid/ask", Concurrency: 2}
			st := openStore(t, "")
			run := func(wb *dataset.Workbook) *Result {
				for _, it := range wb.Items {
					tg.gold[it.Question] = it.DocID
				}
				res, err := Run(context.Background(), wb, Options{Profile: p, Store: st, NewCompleter: rec.completer,
					NewTarget: func(profile.Target) (target.Target, error) { return tg, nil }})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			run(cloneWorkbook(base))
			if len(tg.asked) != 4 {
				t.Fatalf("first run asked %d questions", len(tg.asked))
			}

			wb := cloneWorkbook(base)
			tc.change(t, wb, st)
			tg.asked = nil
			rec.reset()
			res := run(wb)

			if want := tc.asked(wb); !slices.Equal(sortedCopy(tg.asked), sortedCopy(want)) {
				t.Errorf("target asked %q, want %q", tg.asked, want)
			}
			var full, zero int
			for _, pr := range rec.sent("gen-model") {
				if strings.Contains(pr, "受理条件") {
					full++
				} else {
					zero++
				}
			}
			if full != tc.genFull || zero != tc.genZero {
				t.Errorf("generator made %d full and %d zero answers, want %d and %d", full, zero, tc.genFull, tc.genZero)
			}
			for i, it := range res.Workbook.Items {
				if want := "答：" + it.Question; it.Answer(dataset.SetRAG) != want {
					t.Errorf("item %d rag answer %q, want %q", i, it.Answer(dataset.SetRAG), want)
				}
				if !strings.Contains(it.Answer(dataset.SetZero), it.Question) || !strings.Contains(it.Answer(dataset.SetFull), wb.Guides[i].Text[:20]) {
					t.Errorf("item %d bounds do not follow its question and guide: %q / %q", i, it.Answer(dataset.SetZero), it.Answer(dataset.SetFull))
				}
			}
			if tc.judgedAnswer != "" {
				found := false
				for _, pr := range rec.sent("judge-model") {
					found = found || strings.Contains(pr, tc.judgedAnswer)
				}
				if !found {
					t.Errorf("no judge prompt holds %q", tc.judgedAnswer)
				}
			}
			got := map[string]bool{}
			for _, w := range res.Summary.Warnings {
				got[w.Code+"/"+w.Where] = true
				if n, ok := tc.warnings[w.Code+"/"+w.Where]; !ok || !strings.Contains(w.EN, itoa(n)+" stored") || w.ZH == "" {
					t.Errorf("unexpected warning %+v", w)
				}
			}
			for k := range tc.warnings {
				if !got[k] {
					t.Errorf("no %s warning in %+v", k, res.Summary.Warnings)
				}
			}
			// A third run of the same workbook reuses everything.
			tg.asked = nil
			rec.reset()
			again := run(cloneWorkbook(wb))
			if len(tg.asked) != 0 || len(rec.sent("gen-model")) != 0 || len(rec.sent("judge-model")) != 0 || staleWarnings(again.Summary.Warnings) != 0 {
				t.Errorf("an unchanged rerun asked %d questions, %d generations, %d judgements; warnings %+v",
					len(tg.asked), len(rec.sent("gen-model")), len(rec.sent("judge-model")), again.Summary.Warnings)
			}
		})
	}
}

func staleWarnings(ws []result.Warning) int {
	n := 0
	for _, w := range ws {
		if strings.HasPrefix(w.Code, "stale_answers") {
			n++
		}
	}
	return n
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

func itoa(n int) string { return strconv.Itoa(n) }
