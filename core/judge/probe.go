package judge

import (
	"context"
	"errors"
	"fmt"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/text"
)

// probePair is the built-in pair Test connection judges: one question, its
// guide, an answer that follows the guide and one that answers another
// matter. Any judge worth its vote scores the first above the second.
var probePair = map[text.Lang]struct{ question, guide, right, wrong string }{
	"zh": {
		question: "居民身份证有效期满了，换领新证需要带什么材料？多久能拿到？",
		guide:    "事项名称：居民身份证换领\n申请材料：本人居民户口簿、原居民身份证、符合要求的证件照片（可现场采集）\n办理时限：自受理之日起 20 个工作日内发证\n收费标准：工本费 20 元",
		right:    "换领居民身份证需要带本人户口簿和原身份证，照片可以现场采集；自受理之日起 20 个工作日内发证，工本费 20 元。",
		wrong:    "您好，办理护照需要在出入境管理窗口提交申请表并缴纳 120 元，具体请咨询有关部门。",
	},
	"en": {
		question: "My resident ID card has expired. What do I bring to get a new one, and how long does it take?",
		guide:    "Service: renewal of the resident ID card\nMaterials: your household register, the old ID card, a photo meeting the rules (can be taken on site)\nTime limit: issued within 20 working days of acceptance\nFee: 20 yuan",
		right:    "Bring your household register and the old ID card; the photo can be taken on site. The new card is issued within 20 working days of acceptance, and the fee is 20 yuan.",
		wrong:    "Hello, for a passport you fill in the application form at the exit-entry window and pay 120 yuan; please ask the relevant department for details.",
	},
}

// Probe is what Test connection found: the judge's reading of the right
// and the wrong answer of the built-in pair under the real rubric prompt.
type Probe struct {
	Dimension   string
	Right       Outcome
	Wrong       Outcome
	Readable    bool // both replies gave a score
	RightHigher bool // the right answer scored above the wrong one
}

// OK says the judge can be read and tells the right answer from the wrong.
func (p Probe) OK() bool { return p.Readable && p.RightHigher }

// Text says in plain words what the probe found, in lang (zh or en).
func (p Probe) Text(lang text.Lang) string { return p.Words().In(lang) }

// Words says in plain words what the probe found, in both languages.
func (p Probe) Words() text.Text {
	unread := func(o Outcome) text.Text {
		why := ReasonText(o.Reason)
		return text.New(fmt.Sprintf("它的回复读不出分数（%s；回复开头：“%s”）", why.ZH, clip(o.Raw)),
			fmt.Sprintf("its reply could not be read as a score (%s; reply begins %q)", why.EN, clip(o.Raw)))
	}
	switch {
	case !p.Right.OK:
		u := unread(p.Right)
		return text.New("✗ 能连上，但"+u.ZH+"：评估时它的每条评分都会无法评分。请换用能按“评分：N”格式回复的模型，或关闭思考模式。",
			"✗ The endpoint answers, but "+u.EN+": in an evaluation every one of its judgements would be unscorable. Use a model that replies with the \"Score: N\" line, or switch thinking off.")
	case !p.Wrong.OK:
		u := unread(p.Wrong)
		return text.New("✗ 能连上，给正确回答打了 "+num(p.Right.Score)+" 分，但对错误回答"+u.ZH+"：评估中会有大量回复无法评分。",
			"✗ The endpoint answers and scored the right answer "+num(p.Right.Score)+", but on the wrong answer "+u.EN+": many of its judgements would be unscorable.")
	case !p.RightHigher:
		return text.New(fmt.Sprintf("✗ 回复可以读出分数，但正确回答（%s 分）没有比答非所问的错误回答（%s 分）得分高：这个评审模型分不清好坏，评估时不会计入结论。", num(p.Right.Score), num(p.Wrong.Score)),
			fmt.Sprintf("✗ Its replies can be read, but the right answer (%s) did not score above an answer about another matter (%s): this judge cannot tell good from bad and would not be counted in the verdict.", num(p.Right.Score), num(p.Wrong.Score)))
	}
	// One pair can pass by chance: the run checks every judge on every
	// question (its qualification) and says so here.
	return text.New(fmt.Sprintf("✓ 连接正常：评审模型按评分细则回复，分数可以读出，并给正确回答打了更高分（正确回答 %s 分，错误回答 %s 分）。一对回答只能发现明显的问题；评估时还会在全部问题上检查它的评审资格。", num(p.Right.Score), num(p.Wrong.Score)),
		fmt.Sprintf("✓ Connected: the judge replies to the rubric, its scores can be read, and it scored the right answer higher (right %s, wrong %s). One pair only catches plain faults; the evaluation checks its qualification on every question.", num(p.Right.Score), num(p.Wrong.Score)))
}

func num(v float64) string { return fmt.Sprintf("%g", v) }

// ProbeJudge sends the real rubric prompt of dimension d (relevance when
// d is nil) in lang on the built-in pair, once each: a test, not a score.
// The error is the endpoint's when a call failed (for a plain verdict
// naming the field to fix), nil when both replies came back, read or not.
func ProbeJudge(ctx context.Context, c llm.Completer, lang text.Lang, d *Dimension) (Probe, error) {
	lang = text.LangOf(string(lang)) // "zh-CN" is the Chinese pair and prompt
	if d == nil {
		rel, _ := Builtin("relevance")
		d = &rel
	}
	pair, ok := probePair[lang]
	if !ok {
		pair = probePair[text.EN]
	}
	p := Probe{Dimension: d.Name}
	ask := func(answer string) (Outcome, error) {
		msgs, err := Render(*d, lang, Inputs{Question: pair.question, Answer: answer, Document: pair.guide})
		if err != nil {
			return Outcome{}, err
		}
		rep, err := c.Complete(ctx, llm.Request{Messages: msgs, Temperature: 0})
		out := Outcome{Raw: rep.Content, Calls: 1, Usage: rep.Usage}
		switch {
		case errors.Is(err, llm.ErrTruncated):
			out.Reason = StoredReason(ReasonTruncated, "回复达到了词元上限", "the reply hit the token limit")
			return out, nil
		case errors.Is(err, llm.ErrUnfinished):
			out.Reason = StoredReason(ReasonUnfinished, fmt.Sprintf("服务给出的结束原因是“%s”，不是正常结束", rep.FinishReason), fmt.Sprintf("finish_reason %q, not stop", rep.FinishReason))
			return out, nil
		case errors.Is(err, llm.ErrEmptyReply):
			out.Reason = StoredReason(ReasonEmpty, "回复没有内容", "the reply has no content")
			return out, nil
		case err != nil:
			return out, err
		}
		out.Score, out.OK, out.Reason = Reparse(rep.Content, *d)
		return out, nil
	}
	var err error
	if p.Right, err = ask(pair.right); err != nil {
		return p, err
	}
	if p.Wrong, err = ask(pair.wrong); err != nil {
		return p, err
	}
	p.Readable = p.Right.OK && p.Wrong.OK
	p.RightHigher = p.Readable && p.Right.Score > p.Wrong.Score
	return p, nil
}
