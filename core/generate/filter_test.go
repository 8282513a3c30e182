package generate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/text"
	"cubeworkbench/internal/fakeai"
	"cubeworkbench/internal/shareddata"
)

// govQA reads a sheet of MSGABench's gov_qa.xlsx from ../shared/data: real
// questions citizens asked Beijing's government sites, with the answering
// text. Missing data fails the test under CI and skips it elsewhere.
func govQA(t *testing.T, sheet string) [][]string {
	t.Helper()
	path := shareddata.Path(t, "msgabench", "gov_qa.xlsx")
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	return rows[1:]
}

func codes(c Candidate) []string {
	var out []string
	for _, f := range c.Flags {
		out = append(out, f.Code)
	}
	return out
}

// Real near-duplicates from gov_qa's 政务问答 sheet (the same question asked
// twice with a word or a punctuation mark changed) are flagged; real pairs
// that ask different things about the same matter are not.
func TestNearDuplicatesFromGovQA(t *testing.T) {
	rows := govQA(t, "政务问答")
	byText := map[string]bool{}
	for _, r := range rows {
		if len(r) > 0 {
			byText[r[0]] = true
		}
	}
	dup := [][2]string{
		{"企业服务平台上，申请表已经提交，办理状态为办理中,什么时候去服务大厅？", "企业服务平台上，申请表已经提交，办理状态为办理中,什么时候去服务大厅?"},
		{"本市参保人员办理异地就医备案时，需要选择异地就医定点医院吗？", "本市参保人员办理异地就医备案时需要选择异地就医定点医院吗？"},
		{"在本市参加过城镇职工医保的人员去外地工作，并参加了当地城镇职工医保，如何办理医保关系转移接续手续？", "在本市参加过城镇职工医保的人员去外地工作，并参加了当地城镇职工医保，怎么办理医保关系转移接续手续？"},
		{"经济适用住房与两限房设置停车场的标准？", "经济适用住房与两限房设置停车场的标准。"},
	}
	distinct := [][2]string{
		{"如何通过北京住房公积金网查询个人住房公积金情况？", "如何通过住房公积金业务柜台查询个人住房公积金情况？"},
		{"发布汛情橙色预警的主要条件是什么？", "发布汛情红色预警的主要条件是什么？"},
		{"办理《网络预约出租汽车经营许可证》的条件", "办理《网络预约出租汽车经营许可证》的申请材料"},
	}
	for _, pairs := range [][][2]string{dup, distinct} {
		for _, p := range pairs {
			for _, q := range p {
				if !byText[q] {
					t.Fatalf("%q is not a question of gov_qa.xlsx", q)
				}
			}
		}
	}
	var cands []Candidate
	for _, p := range append(dup, distinct...) {
		cands = append(cands, Candidate{ID: "a", Question: p[0]}, Candidate{ID: "b", Question: p[1]})
	}
	// each pair on its own, so a pair is compared only with itself
	for i := 0; i < len(cands); i += 2 {
		pair := cands[i : i+2]
		if err := Filter(context.Background(), pair, nil, FilterOptions{Lang: "zh"}); err != nil {
			t.Fatal(err)
		}
		isDup := i/2 < len(dup)
		if slices.Contains(codes(pair[0]), FlagNearDuplicate) {
			t.Errorf("the first of a pair is flagged: %q", pair[0].Question)
		}
		if got := slices.Contains(codes(pair[1]), FlagNearDuplicate); got != isDup {
			t.Errorf("%q vs %q: near-duplicate %v, want %v", pair[0].Question, pair[1].Question, got, isDup)
		}
		if isDup && !strings.Contains(pair[1].Flags[0].ZH, "与另一问题几乎相同") {
			t.Errorf("reason %q", pair[1].Flags[0].ZH)
		}
	}
	// an existing question of the QA set counts too
	c := []Candidate{{ID: "n", Question: dup[0][1]}}
	Filter(context.Background(), c, nil, FilterOptions{Lang: "zh", Existing: []string{dup[0][0]}})
	if !slices.Contains(codes(c[0]), FlagNearDuplicate) {
		t.Error("a duplicate of an existing question is not flagged")
	}
}

// Real questions of gov_qa that repeat a sentence of their own answering
// text are flagged verbatim, naming the copied passage; one that does not
// is not.
func TestVerbatimFromGovQA(t *testing.T) {
	rows := govQA(t, "政务问答")
	text := map[string]string{}
	for _, r := range rows {
		if len(r) > 1 {
			text[r[0]] = r[1]
		}
	}
	cases := []struct {
		q, passage string
	}{
		{"通过住房公积金网上业务系统已经确认申报了当月的汇缴清册，发现有错误如何处理？", "通过住房公积金网上业务系统已经确认申报了当月的汇缴清册"},
		{"人们通常谈论的商维资金、公维资金、维修资金等概念，与住宅专项维修资金有什么关系？", "人们通常谈论的商维资金公维资金维修资金等概念"},
		{"影响北京地区暴雨的主要天气系统有哪些？", "影响北京地区暴雨的主要天气系统有"},
		{"震中求生的秘诀", ""},
		{"遇到险情怎么办", ""},
	}
	for _, c := range cases {
		body, ok := text[c.q]
		if !ok {
			t.Fatalf("%q is not a question of gov_qa.xlsx", c.q)
		}
		cands := []Candidate{{ID: "x", Question: c.q, GuideID: "g"}}
		if err := Filter(context.Background(), cands, []dataset.Guide{{ID: "g", Title: "无关标题", Text: body}}, FilterOptions{Lang: "zh"}); err != nil {
			t.Fatal(err)
		}
		var got *Flag
		for i := range cands[0].Flags {
			if cands[0].Flags[i].Code == FlagVerbatim {
				got = &cands[0].Flags[i]
			}
		}
		switch {
		case c.passage == "" && got != nil:
			t.Errorf("%q flagged verbatim: %s", c.q, got.ZH)
		case c.passage != "" && (got == nil || !strings.Contains(got.ZH, "“"+c.passage+"”")):
			t.Errorf("%q: flag %+v, want the passage %q", c.q, got, c.passage)
		}
	}
	// Naming the service by its title is no copy.
	g := dataset.Guide{ID: "g", Title: "抽水蓄能电站项目核准（新建）", Text: "事项名称：抽水蓄能电站项目核准（新建）\n申请材料：项目申请报告。"}
	cands := []Candidate{{ID: "x", Question: "抽水蓄能电站项目核准（新建）要交什么？", GuideID: "g"}}
	Filter(context.Background(), cands, []dataset.Guide{g}, FilterOptions{Lang: "zh"})
	if slices.Contains(codes(cands[0]), FlagVerbatim) {
		t.Errorf("the title counts as a copy: %+v", cands[0].Flags)
	}
}

func TestLengthAndLanguage(t *testing.T) {
	cases := []struct {
		q, lang string
		want    []string
	}{
		{"居住证要交哪些材料？", "zh", nil},
		{"材料？", "zh", []string{FlagTooShort}},
		{strings.Repeat("居住证要交哪些材料", 10) + "？", "zh", []string{FlagTooLong}},
		{"Which documents do I need for a residence permit?", "zh", []string{FlagWrongLanguage}},
		{"Which documents do I need for a residence permit?", "en", nil},
		{"居住证要交哪些材料？请用 English 回答", "en", []string{FlagWrongLanguage}},
	}
	for _, c := range cases {
		cands := []Candidate{{ID: "x", Question: c.q}}
		Filter(context.Background(), cands, nil, FilterOptions{Lang: text.Lang(c.lang)})
		if got := codes(cands[0]); !slices.Equal(got, c.want) {
			t.Errorf("%q (%s): flags %v, want %v", c.q, c.lang, got, c.want)
		}
		for _, f := range cands[0].Flags {
			if f.ZH == "" || f.EN == "" {
				t.Errorf("flag %s lacks a reason in one language", f.Code)
			}
		}
	}
}

// The critic flags what it says the guide does not answer, and a failed or
// unreadable critic call as not checked — never as answerable.
func TestCritic(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithResponder(func(r fakeai.ChatRequest) fakeai.Response {
		p := r.Messages[len(r.Messages)-1].Content
		switch {
		case strings.Contains(p, "停车"):
			return fakeai.Response{Content: `{"answerable": false, "reason": "指南没有提到停车"}`}
		case strings.Contains(p, "乱码"):
			return fakeai.Response{Content: "我觉得可以"}
		}
		return fakeai.Response{Content: "```json\n{\"answerable\": true, \"reason\": \"申请材料一栏\"}\n```"}
	}))
	g := &Generator{C: mustClient(t, srv), Lang: "zh"}
	guides := []dataset.Guide{{ID: "g", Text: "申请材料：身份证。"}}
	cands := []Candidate{{ID: "1", Question: "要带什么材料？", GuideID: "g"}, {ID: "2", Question: "能停车吗？", GuideID: "g"}, {ID: "3", Question: "乱码？", GuideID: "g"}}
	if err := g.Critic(context.Background(), cands, guides); err != nil {
		t.Fatal(err)
	}
	if len(cands[0].Flags) != 0 || !slices.Equal(codes(cands[1]), []string{FlagUnanswerable}) || !slices.Equal(codes(cands[2]), []string{FlagCriticFailed}) {
		t.Errorf("flags %v %v %v", codes(cands[0]), codes(cands[1]), codes(cands[2]))
	}
	if !strings.Contains(cands[1].Flags[0].ZH, "指南没有提到停车") {
		t.Errorf("the critic's reason is not shown: %q", cands[1].Flags[0].ZH)
	}
	if _, _, err := ParseCritic(`{"reason": "x"}`); err == nil {
		t.Error("a reply without answerable was read")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := g.Critic(ctx, cands, guides); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled critic: %v", err)
	}
}
