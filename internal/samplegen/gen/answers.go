package gen

import (
	"strings"
	"unicode/utf8"
)

// Answers are built from the guides' fields so that what an answer claims is
// always traceable to a document: the gold one for correct answers, a
// near-duplicate for the wrong ones.

// phrase renders one facet of a guide. keep limits list facets to their first
// keep items (0 = all); a trimmed list ends with 等 so it reads as partial.
func phrase(g *guide, facet string, keep int) string {
	list := func(items []string) string {
		if keep > 0 && keep < len(items) {
			return strings.Join(items[:keep], "；") + "等"
		}
		return strings.Join(items, "；")
	}
	switch facet {
	case fCond:
		return "受理条件为：" + list(g.Cond)
	case fTime:
		if keep > 0 {
			return "承诺办结时限为" + g.Promise
		}
		return "法定办结时限为" + g.Legal + "，承诺办结时限为" + g.Promise
	case fPromise:
		return "承诺办结时限为" + g.Promise
	case fProc:
		return "办理流程为：" + list(g.Proc)
	case fMat:
		return "需提交的材料包括：" + list(g.Mat)
	case fFee:
		if keep > 0 {
			first, _, _ := strings.Cut(g.Fee, "；")
			return "收费标准为" + first
		}
		return "收费标准为：" + g.Fee
	}
	return ""
}

func phrases(g *guide, facets []string, keep int) string {
	parts := make([]string, 0, len(facets))
	for _, f := range facets {
		parts = append(parts, phrase(g, f, keep))
	}
	return strings.Join(parts, "；")
}

func half(g *guide, facet string) int {
	n := 0
	switch facet {
	case fCond:
		n = len(g.Cond)
	case fProc:
		n = len(g.Proc)
	case fMat:
		n = len(g.Mat)
	default:
		return 1
	}
	return (n + 1) / 2
}

func topic(q question) string { return q.Coarse[0] }

var ragOpeners = []string{"您好！", "", "根据办事指南，", "您好，"}

// ragAnswer is the answer of the system under test; top is the first
// retrieved document, which for a miss is a near-duplicate of the gold.
func ragAnswer(rw *row, top *guide, i int) string {
	g, q := rw.Gold, rw.Q
	open := ragOpeners[i%len(ragOpeners)]
	switch rw.Level {
	case levelFull:
		return open + "办理" + g.Title + "，" + phrases(g, q.Facets, 0) + "。"
	case levelGood:
		return open + "办理" + g.Title + "，" + phrases(g, q.Facets, half(g, q.Facets[0])) + "。其他要求建议咨询办理窗口。"
	case levelPartial:
		return "根据检索到的资料，" + phrase(g, q.Facets[0], 1) + "。资料不够完整，具体要求请以办理窗口的答复为准。"
	default:
		if i%3 == 2 {
			return "抱歉，没有检索到与“" + topic(q) + "”直接相关的办事指南。" + zeroBody(q, i)
		}
		// The retriever served a sibling; the model answers from it with
		// confidence, so every detail that differs between variants is wrong.
		greet := ""
		if strings.HasPrefix(open, "您好") {
			greet = open
		}
		return greet + "根据《" + top.Title + "》办事指南，" + phrases(top, q.Facets, 0) + "。"
	}
}

// answerB is a second version of the system, for A/B comparison: terser,
// and it hedges rather than answering from the wrong document.
func answerB(rw *row, i int) string {
	g, q := rw.Gold, rw.Q
	switch rw.LevelB {
	case levelFull:
		return g.Title + "：" + phrases(g, q.Facets, 0) + "。如有疑问可拨打" + g.Phone + "咨询。"
	case levelGood:
		return g.Title + "：" + phrases(g, q.Facets, half(g, q.Facets[0])) + "。"
	case levelPartial:
		return "据了解，" + phrase(g, q.Facets[0], 1) + "。更多细节请咨询" + g.Agency + "。"
	default:
		return "暂未找到相关办事指南，建议拨打12345政务服务便民热线咨询。" + zeroBody(q, i+1)
	}
}

// zeroBody is what a bare model says without any context: generic, hedged,
// with no figure that could be checked.
func zeroBody(q question, i int) string {
	t := topic(q)
	switch q.Facets[0] {
	case fCond:
		return []string{
			"关于" + t + "，一般需要满足相关法律法规规定的条件，并提交真实有效的申请材料。不同地区要求可能不同，建议提前咨询当地主管部门。",
			"一般来说，符合条件的申请人都可以办理" + t + "相关事项，具体条件以当地规定为准。",
		}[i%2]
	case fTime, fPromise:
		return []string{
			t + "相关事项的办理时限一般在5到20个工作日之间，具体以当地政务服务中心公布的时限为准。",
			"办理时间因地区和具体情形而异，材料齐全的话一般较快，具体以当地规定为准。",
		}[i%2]
	case fProc:
		return []string{
			"一般流程是：准备材料，到政务服务大厅或在网上提交申请，等待审核，审核通过后领取结果。具体以当地规定为准。",
			"可以先在当地政务服务网查询" + t + "的办事指南，再按要求提交申请，具体以当地规定为准。",
		}[i%2]
	case fMat:
		return []string{
			"一般需要携带身份证到相关部门办理，具体以当地规定为准。",
			"通常需要本人身份证件、申请表以及相关证明材料，具体材料清单以当地规定为准。",
		}[i%2]
	case fFee:
		return []string{
			"政务服务事项大多不收费，部分证件可能收取工本费，具体标准以当地公布的为准。",
			t + "的收费标准各地不同，建议向当地相关部门咨询。",
		}[i%2]
	}
	return "一般需要携带身份证到相关部门办理，具体以当地规定为准。"
}

func zeroAnswer(q question, i int) string { return zeroBody(q, i) }

// fullAnswer is the upper bound: written from the gold document alone.
func fullAnswer(q question, g *guide) string {
	return "根据《" + g.Title + "》办事指南，" + phrases(g, q.Facets, 0) + "。如需进一步咨询，可拨打" + g.Phone + "。"
}

// referenceAnswer is the concise reference for MFSS and CoFE correctness.
func referenceAnswer(q question, g *guide) string {
	return g.Title + "：" + phrases(g, q.Facets, 0) + "。"
}

// runeLen is used by the content checks in tests.
func runeLen(s string) int { return utf8.RuneCountInString(s) }
