package explain

import (
	"fmt"
	"slices"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// baselineNames are engine.LexicalJudge and engine.SemanticJudge: scores
// an offline run wrote and a later run imported keep these judge names.
var baselineNames = map[string]bool{"lexical": true, "semantic": true}

// sampleRegion is the invented province of the bundled sample's guides
// (internal/samplegen): no real guide names it.
const sampleRegion = "云川省"

// baselineJudges are the judges that are not language models: every kind
// but llm and imported (lexical and semantic today, any further offline
// judge tomorrow), and imported scores of a judge called lexical or
// semantic.
func baselineJudges(js []Judge) []string {
	var out []string
	for _, j := range js {
		switch {
		case j.Kind == KindLLM:
		case j.Kind == KindImported && !baselineNames[j.Name]:
		default:
			out = append(out, j.Name)
		}
	}
	return out
}

// IsBundledSample recognises the bundled fictional sample by its guides:
// at least half of them are of the invented province 云川省. Content, not
// a file name or a hash, so that a copy, a CSV export or an edited sample
// is still recognised, and one real guide mentioning a place is not.
func IsBundledSample(guides []dataset.Guide) bool {
	if len(guides) == 0 {
		return false
	}
	n := 0
	for _, g := range guides {
		if mentions(g, sampleRegion) {
			n++
		}
	}
	return 2*n >= len(guides)
}

func mentions(g dataset.Guide, s string) bool {
	if strings.Contains(g.Text, s) || strings.Contains(g.Title, s) {
		return true
	}
	for _, f := range g.Fields {
		if strings.Contains(f.Value, s) {
			return true
		}
	}
	return false
}

func banners(in Input) []Banner {
	out := []Banner{}
	if names := baselineJudges(in.Judges); len(names) > 0 {
		// Only a qualified LLM judge makes the verdict more than the
		// baselines' (issue 22): one that scored nothing, or was not
		// counted, leaves the banner as it was.
		all := !countedLLMJudge(in, names)
		// Named as the glossary does (词汇基线评审, not lexical).
		zhNames, enNames := make([]string, len(names)), make([]string, len(names))
		for i, n := range names {
			zhNames[i], enNames[i] = glossary.JudgeName(n, "zh"), glossary.JudgeName(n, "en")
		}
		zhWho := "评审模型“" + strings.Join(zhNames, "”、“") + "”是"
		enWho, enHow := "The judge "+strings.Join(enNames, ", ")+" is a", "it scores word overlap or surface similarity and does not understand the answers"
		if len(names) > 1 {
			enWho, enHow = "The judges "+strings.Join(enNames, ", ")+" are each a", "they score word overlap or surface similarity and do not understand the answers"
		}
		// lexical counts shared words, semantic compares hashed character
		// n-gram vectors: both read the surface of the text only.
		zh := zhWho + glossary.Term(glossary.BaselineJudge, "zh") + "：按词语重合或字面相似度打分，不理解回答内容"
		en := enWho + " " + glossary.Term(glossary.BaselineJudge, "en") + ": " + enHow
		if all {
			zh += "；本结论只能用于演示流程，不能作为部署依据"
			en += "; this verdict shows the method only and is no ground for deployment"
		} else {
			zh += "；其分数已计入 CuBE 得分"
			en += "; its scores are part of the CuBE score"
		}
		out = append(out, Banner{Code: BannerBaselineJudge, Text: text.New(zh, en), Evidence: map[string]any{"judges": names, "all_judges": all}})
	}
	out = append(out, notCountedBanners(in)...)
	byGuides := IsBundledSample(in.Guides)
	if in.SampleFile || byGuides {
		out = append(out, Banner{Code: BannerSampleData, Text: text.New(
			"这是"+glossary.Term(glossary.Sample, "zh")+"（“"+sampleRegion+"”是虚构的省份）：结论不代表任何真实系统",
			fmt.Sprintf("This is the %s (\"Yunchuan Province\" does not exist): the verdict says nothing about any real system", glossary.Term(glossary.Sample, "en"))), Evidence: map[string]any{"opened_as_sample": in.SampleFile, "guides_of_invented_province": byGuides}})
	}
	return out
}

// countedLLMJudge says a judge that is not a baseline entered the verdict:
// it qualified in the CuBE result.
func countedLLMJudge(in Input, baselines []string) bool {
	if in.Result == nil {
		return len(baselines) < len(in.Judges)
	}
	for _, j := range in.Result.Judges {
		if j.Counted() && !slices.Contains(baselines, j.Judge) {
			return true
		}
	}
	return false
}

// notCountedBanners name each judge that did not qualify and why: its
// figures stay in its card, never in the verdict.
func notCountedBanners(in Input) []Banner {
	if in.Result == nil {
		return nil
	}
	var out []Banner
	for _, j := range in.Result.Judges {
		if j.Counted() {
			continue
		}
		var zh, en []string
		for _, r := range j.QualificationReasons {
			zh, en = append(zh, r.ZH), append(en, r.EN)
		}
		out = append(out, Banner{Code: BannerJudgeNotCounted, Text: text.New(
			fmt.Sprintf("%s %s %s（未通过%s）：%s", glossary.Term(glossary.Judge, "zh"), j.Judge,
				glossary.Term(glossary.JudgeNotCounted, "zh"), glossary.Term(glossary.JudgeQualification, "zh"), strings.Join(zh, "；")),
			fmt.Sprintf("%s %s is %s (it failed %s): %s", capital(glossary.Term(glossary.Judge, "en")), j.Judge,
				glossary.Term(glossary.JudgeNotCounted, "en"), glossary.Term(glossary.JudgeQualification, "en"), strings.Join(en, "; "))), Evidence: map[string]any{"judge": j.Judge, "checks": j.Qualification}})
	}
	return out
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
