package generate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/text"
	"cubeworkbench/internal/fakeai"
)

func guidesFor(n int) []dataset.Guide {
	var out []dataset.Guide
	for i := range n {
		agency := "市场监管局"
		if i%3 == 0 {
			agency = "公安局"
		}
		out = append(out, dataset.Guide{ID: fmt.Sprintf("G%02d", i), Title: fmt.Sprintf("事项%d", i),
			Text:   fmt.Sprintf("事项名称：事项%d\n申请材料：身份证。", i),
			Fields: []dataset.Field{{Name: "实施主体", Value: agency}, {Name: "申请材料", Value: "身份证"}}})
	}
	return out
}

func ids(gs []dataset.Guide) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

func TestSelect(t *testing.T) {
	gs := guidesFor(12)
	all, err := Select(gs, Selection{})
	if err != nil || len(all) != 12 {
		t.Fatalf("all: %d %v", len(all), err)
	}
	police, err := Select(gs, Selection{Column: "实施主体", Values: []string{"公安局"}})
	if err != nil || !slices.Equal(ids(police), []string{"G00", "G03", "G06", "G09"}) {
		t.Fatalf("by column: %v %v", ids(police), err)
	}
	if _, err := Select(gs, Selection{Column: "行政区划", Values: []string{"云川省"}}); err == nil || !strings.Contains(err.Error(), "行政区划") {
		t.Errorf("unknown column: %v", err)
	}
	if _, err := Select(gs, Selection{Column: "实施主体", Values: []string{"税务局"}}); err == nil {
		t.Error("a value no guide has gave an empty set")
	} else if zh, en := text.Of(err).In(text.ZH), text.Of(err).In(text.EN); !strings.Contains(zh, "没有办事指南") ||
		strings.Contains(zh, "no guide") || !strings.Contains(en, "no guide has 实施主体 = 税务局") || strings.Contains(en, "没有办事指南") {
		t.Errorf("one language each (issue 21): zh %q, en %q", zh, en)
	}
	a, _ := Select(gs, Selection{Sample: 5, Seed: 9})
	b, _ := Select(gs, Selection{Sample: 5, Seed: 9})
	c, _ := Select(gs, Selection{Sample: 5, Seed: 10})
	if len(a) != 5 || !slices.Equal(ids(a), ids(b)) || slices.Equal(ids(a), ids(c)) || !slices.IsSorted(ids(a)) {
		t.Errorf("samples %v %v %v", ids(a), ids(b), ids(c))
	}
	if got := ColumnValues(gs, "实施主体"); !slices.Equal(got, []string{"公安局", "市场监管局"}) {
		t.Errorf("column values %v", got)
	}
}

// Each guide's questions cycle through the types and the aspects it can
// answer; one it cannot (fees: no column, no word) is never asked of it.
func TestTestSetTypesAndAspects(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithResponder(fakeai.Generator))
	g := &Generator{C: mustClient(t, srv), Lang: "zh", Seed: 1}
	cands, problems, err := g.TestSet(context.Background(), guidesFor(3), Spec{PerGuide: 4, Types: []string{"factual", "tutorial"}, Aspects: []string{"materials", "fees"}}, 2, nil)
	if err != nil || len(problems) != 0 || len(cands) != 12 {
		t.Fatalf("%d candidates, %v %v", len(cands), problems, err)
	}
	types := map[string]int{}
	for i, c := range cands {
		if c.Aspect != "materials" {
			t.Errorf("%s asked about %q, which its guide cannot answer", c.ID, c.Aspect)
		}
		types[c.QueryType]++
		if c.ID != fmt.Sprintf("gen%04d", i+1) || c.Model != "fake-gen" || c.Origin != OriginGenerated || !strings.Contains(c.Question, c.GuideTitle) {
			t.Errorf("candidate %+v", c)
		}
	}
	if types["factual"] != 6 || types["tutorial"] != 6 {
		t.Errorf("types %v", types)
	}
	// the prompt names the type and the aspect, and the questions already asked
	var sawAvoid bool
	for _, c := range srv.Chats() {
		p := c.Messages[len(c.Messages)-1].Content
		if !strings.Contains(p, "问题要问的方面：申请材料") {
			t.Fatalf("prompt without the aspect:\n%s", p)
		}
		sawAvoid = sawAvoid || strings.Contains(p, "不要与下面这些已经提出的问题重复")
	}
	if !sawAvoid {
		t.Error("no prompt lists the questions already asked")
	}
	if _, _, err := g.TestSet(context.Background(), guidesFor(1), Spec{}, 1, nil); err == nil {
		t.Error("zero questions per guide accepted")
	}
}

func TestEditMarksOrigin(t *testing.T) {
	c := Candidate{Question: "原问题？", Origin: OriginGenerated}
	c.Edit("  原问题？ ")
	if c.Origin != OriginGenerated {
		t.Error("an unchanged text made it edited")
	}
	c.Edit("新问题？")
	if c.Origin != OriginEdited || c.Original != "原问题？" || c.Question != "新问题？" {
		t.Errorf("%+v", c)
	}
	if OriginTitle(OriginEdited, "zh") != "修改" || OriginTitle(OriginManual, "zh") != "人工" || OriginTitle(OriginGenerated, "en") != "generated" {
		t.Error("origin titles")
	}
}
