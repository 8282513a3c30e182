package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/reasoning"
	"cubeworkbench/core/text"
)

// Reason codes of an unscorable reply.
const (
	ReasonEmpty      = "empty"        // no content (after removing <think> blocks)
	ReasonNoScore    = "no_score"     // no score could be found
	ReasonOutOfRange = "out_of_range" // a score outside the dimension's scale
	ReasonAmbiguous  = "ambiguous"    // a range, a different scale, or disagreeing numbers
	ReasonTruncated  = "truncated"    // cut off by the token limit or inside <think>
	ReasonEndpoint   = "endpoint"     // the call itself failed
	ReasonUnfinished = "unfinished"   // finish_reason other than stop (content_filter, …)
)

// ParseError says why a reply yields no score.
type ParseError struct {
	Code     string // one of the Reason constants
	Detail   string // in English, for logs and errors
	DetailZH string // the same in Chinese, for the window and the report
}

func (e *ParseError) Error() string { return e.Code + ": " + e.Detail }

// Reason is e as an Outcome stores it: "code: 中文 | English" (see
// StoredReason).
func (e *ParseError) Reason() string { return StoredReason(e.Code, e.DetailZH, e.Detail) }

// parseErr is a ParseError whose two formats take the same arguments.
func parseErr(code, zh, en string, args ...any) *ParseError {
	return &ParseError{Code: code, Detail: fmt.Sprintf(en, args...), DetailZH: fmt.Sprintf(zh, args...)}
}

// StoredReason is an unscorable outcome's reason as stored: the code, so
// that ReasonCode reads it, then the detail in both languages as
// text.Text.Stored writes it ("no_score: 问题中没有实词 | the question has
// no content words"). ReasonText reads it back for people.
func StoredReason(code, zh, en string) string { return code + ": " + text.New(zh, en).Stored() }

// reasonWords name the codes for people; no_score says nothing the detail
// does not, so it has none.
var reasonWords = map[string]text.Text{
	ReasonEmpty:      text.New("回复为空", "empty reply"),
	ReasonOutOfRange: text.New("超出评分范围", "out of range"),
	ReasonAmbiguous:  text.New("分数有歧义", "ambiguous score"),
	ReasonTruncated:  text.New("回复被截断", "reply cut off"),
	ReasonEndpoint:   text.New("调用失败", "call failed"),
	ReasonUnfinished: text.New("回复未正常结束", "reply did not finish"),
}

// ReasonText is a stored reason or an offline judge's note in both
// languages, for people: "无法评分（分数有歧义）：两行结论不一致…" /
// "unscorable (ambiguous score): two verdict lines disagree…", and an
// offline judge's note ("lexical 相关性… | relevance…") without the
// judge's name. A reason stored before reasons had two languages (one
// English detail) keeps its detail in both; a judge's own words (an LLM's
// reply) come back as they are in both.
func ReasonText(stored string) text.Text {
	s := strings.TrimSpace(stored)
	for _, name := range []string{LexicalName, SemanticName} {
		if rest, ok := strings.CutPrefix(s, name+" "); ok {
			return text.Parse(rest)
		}
	}
	code := ReasonCode(s)
	_, known := reasonWords[code]
	if code == s || !known && code != ReasonNoScore {
		// A judge's own reply: " | " in it is a Markdown table, not a
		// language separator.
		return text.New(s, s)
	}
	detail := text.Parse(strings.TrimSpace(s[len(code)+1:]))
	head := text.New(glossary.Term(glossary.Unscorable, "zh"), glossary.Term(glossary.Unscorable, "en"))
	if w, ok := reasonWords[code]; ok {
		head = text.New(head.ZH+"（"+w.ZH+"）", head.EN+" ("+w.EN+")")
	}
	return text.New(head.ZH+"："+detail.ZH, head.EN+": "+detail.EN)
}

var (
	// Markup that wraps scores but carries no meaning for them.
	markup = strings.NewReplacer("**", "", "__", "", "`", "", "\u2212", "-", "－", "-")
	// Wrappers around a number: [[8]], \boxed{8}, $\boxed{8}$, 【8】, “8”.
	wrapped = regexp.MustCompile(`\$?\\boxed\{\s*([^{}]{1,8}?)\s*\}\$?|\[\[\s*([^\[\]]{1,8}?)\s*\]\]|【\s*([0-9.]{1,5})\s*】|[“"「『]\s*([0-9.]{1,5})\s*[”"」』]`)
)

// stripReasoning removes every reasoning block, in the forms core/reasoning
// reads in the system's answers too (one list of tags for both); a reply
// that opens one and never closes it was cut off inside its reasoning, and
// any number after the tag is thinking, never the verdict.
func stripReasoning(content string) (string, error) {
	content, cut := reasoning.Strip(content)
	if cut {
		return "", parseErr(ReasonTruncated, "回复在推理过程中被截断", "the reply ends inside a reasoning block")
	}
	return content, nil
}

// normalise maps full-width forms to ASCII (digits, colon, slash, brackets,
// equals), every kind of space to a plain one and drops emphasis markup.
func normalise(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
			r -= 0xFEE0
		case r == '\u3000' || r == '\u00a0' || r == '\u202f' || r == '\u205f' || (r >= '\u2000' && r <= '\u200a'):
			r = ' '
		case r == '\u200b' || r == '\ufeff':
			continue
		}
		b.WriteRune(r)
	}
	return markup.Replace(b.String())
}

// clean strips reasoning, normalises and unwraps numbers.
func clean(content string) (string, error) {
	content, err := stripReasoning(content)
	if err != nil {
		return "", err
	}
	content = strings.TrimSpace(content)
	if content == "" {
		return "", parseErr(ReasonEmpty, "回复没有内容", "the reply has no content")
	}
	s := normalise(content)
	return wrapped.ReplaceAllStringFunc(s, func(m string) string {
		for _, g := range wrapped.FindStringSubmatch(m)[1:] {
			if g != "" {
				return " " + g + " "
			}
		}
		return m
	}), nil
}

const numPat = `(-?\d+(?:\.\d+)?|[零〇一二两三四五六七八九十]+(?:点[零〇一二三四五六七八九]+)?)`

var (
	// A verdict label: what the rubric prompt asks for (评分 / Score), its
	// Traditional form and the usual names of a final total. A per-item
	// 得分 is not one: it is never read as the score.
	verdictLabel = regexp.MustCompile(`(?i)(最终评分|最终得分|最终分数|最后评分|最后得分|综合评分|综合得分|总评分|总得分|评分结果|最終評分|最終得分|綜合評分|評分結果|總分|总分|評分|评分|分数|分數|打分|` +
		`\bfinal\s+score\b|\boverall\s+score\b|\btotal\s+score\b|\bfinal\s+rating\b|\boverall\s+rating\b|\bfinal\s+grade\b|` +
		`\btotal_score\b|\bfinal_score\b|\boverall_score\b|\btotal\b|\bscore\b|\brating\b|\bgrade\b)` +
		// closers of 【评分】 and "score", an aside such as (0-10), a connector
		`["'\s】\])]*(?:[(（][^()（）\n]{0,20}[)）])?["'\s】\])]*(?:[:=]|\bis\b|\bof\b|为|是|為|-\s)?` +
		// openers, "about", then the number
		`[\s"'“”‘’「『(\[{<]*(?:约|大约|約|about|approximately|~)?\s*` + numPat)
	// After a number: "/10", "out of 10", "分（满分10分）".
	denominator = regexp.MustCompile(`(?i)^\s*分?\s*(?:/|\bout\s+of\b|[(（]?\s*满分|[(（]?\s*滿分)\s*(\d+)\s*分?\s*[)）]?`)
	// After a number: "-7", "~ 7", "到七", "or 7": a range, not a score.
	rangeTail = regexp.MustCompile(`(?i)^\s*分?\s*(?:-|–|—|~|～|到|至|\bor\b|或)\s*(?:\d|[一二两三四五六七八九十])`)
	// After a number: "+2+1=8", a sum whose result follows.
	sumTail = regexp.MustCompile(`^(?:\s*\+\s*\d+(?:\.\d+)?)+\s*=\s*(\d+(?:\.\d+)?)`)
	// What may follow the score on its line: 分, points, closing marks.
	scoreTail = regexp.MustCompile(`(?i)^\s*(?:分|points?|pts)?[\s"'”’」』)\]}>.。!！,，;；]*`)
	bareLine  = regexp.MustCompile(`(?i)^` + numPat + `\s*(?:分|points?|/\s*(\d+)|out\s+of\s+(\d+))?$`)
	anyDigit  = regexp.MustCompile(`\d`)
)

// chineseNumber reads 零…十 numerals up to 99, with an optional 点 decimal.
func chineseNumber(s string) (float64, bool) {
	digit := map[rune]int{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	intPart, frac, hasFrac := strings.Cut(s, "点")
	rs := []rune(intPart)
	var v int
	switch i := strings.IndexRune(intPart, '十'); {
	case len(rs) == 0:
		return 0, false
	case i < 0:
		if len(rs) != 1 {
			return 0, false
		}
		d, ok := digit[rs[0]]
		if !ok {
			return 0, false
		}
		v = d
	default:
		tens, ones := []rune(intPart[:i]), []rune(intPart[i+len("十"):])
		t, o := 1, 0
		if len(tens) > 1 || len(ones) > 1 {
			return 0, false
		}
		if len(tens) == 1 {
			d, ok := digit[tens[0]]
			if !ok || d == 0 {
				return 0, false
			}
			t = d
		}
		if len(ones) == 1 {
			d, ok := digit[ones[0]]
			if !ok {
				return 0, false
			}
			o = d
		}
		v = 10*t + o
	}
	f := float64(v)
	if hasFrac {
		scale := 0.1
		for _, r := range frac {
			d, ok := digit[r]
			if !ok {
				return 0, false
			}
			f += float64(d) * scale
			scale /= 10
		}
	}
	return f, true
}

func isDigits(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.' || r == '-') }) < 0
}

func number(s string) (float64, bool) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return v, true
	}
	return chineseNumber(s)
}

// candidate is one verdict-labelled score found in the text.
type candidate struct {
	v         float64
	start     int         // where its label starts
	end       int         // where what belongs to it ends
	lineStart bool        // only blanks and markup precede the label on its line
	err       *ParseError // set when the candidate itself is unusable
}

func check(v float64, denom string, min, max int) *ParseError {
	if denom != "" {
		if d, _ := strconv.Atoi(denom); d != max {
			return parseErr(ReasonAmbiguous, "分数 %g/%s 不是 %d–%d 分制", "score %g/%s is on another scale than %d–%d", v, denom, min, max)
		}
	}
	if v < float64(min) || v > float64(max) {
		return parseErr(ReasonOutOfRange, "分数 %g 超出 %d–%d", "score %g is outside %d–%d", v, min, max)
	}
	return nil
}

// atLineStart reports whether only blanks, list markers and markup precede
// i on its line.
func atLineStart(s string, i int) bool {
	j := strings.LastIndexByte(s[:i], '\n') + 1
	return strings.TrimLeft(s[j:i], " \t#*_->\"'{[(【0123456789.)、") == ""
}

func clip(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

// listAfterHeading is "## 评分\n1. 事项对应": a list under a heading.
var listAfterHeading = regexp.MustCompile(`^[.、)）]\s*\S`)

// verdictScores finds every verdict-labelled score.
func verdictScores(s string, min, max int) []candidate {
	var out []candidate
	for _, m := range verdictLabel.FindAllStringSubmatchIndex(s, -1) {
		numStart, numEnd := m[4], m[5]
		raw := s[numStart:numEnd]
		v, ok := number(raw)
		if !ok {
			continue
		}
		tail := s[numEnd:]
		// 评分：一般 ("average") is a word, not the number one.
		if r, _ := utf8.DecodeRuneInString(tail); r != '分' && unicode.Is(unicode.Han, r) && !isDigits(raw) {
			continue
		}
		if strings.Contains(s[m[3]:numStart], "\n") && listAfterHeading.MatchString(tail) {
			continue
		}
		c := candidate{v: v, start: m[2], end: numEnd, lineStart: atLineStart(s, m[2])}
		switch sum := sumTail.FindStringSubmatchIndex(tail); {
		case rangeTail.MatchString(tail):
			c.err = parseErr(ReasonAmbiguous, "给出的是分数范围而不是一个分数：“%s”", "a range, not one score: %q", clip(s[m[0]:]))
		case sum != nil:
			c.v, _ = strconv.ParseFloat(tail[sum[2]:sum[3]], 64)
			c.end += sum[1]
			c.err = check(c.v, "", min, max)
		case strings.HasPrefix(strings.TrimSpace(tail), "+"):
			c.err = parseErr(ReasonAmbiguous, "只有加式、没有结果：“%s”", "a sum without its result: %q", clip(s[m[0]:]))
		default:
			denom := ""
			if d := denominator.FindStringSubmatchIndex(tail); d != nil {
				denom = tail[d[2]:d[3]]
				c.end += d[1]
			}
			c.err = check(v, denom, min, max)
		}
		c.end += len(scoreTail.FindString(s[c.end:]))
		out = append(out, c)
	}
	return out
}

// jsonKeys are the fields a JSON reply may carry its score in, the total
// before a plain score (a criteria list may carry per-item scores).
var jsonKeys = []string{"total_score", "final_score", "overall_score", "total", "总分", "最终评分", "score", "评分", "評分", "rating"}

// jsonScore reads a reply that is one JSON object (fenced or not): its
// top-level total or score. ok is false when the reply is no such object.
func jsonScore(s string, min, max int) (float64, *ParseError, bool) {
	t := strings.TrimSpace(s)
	for _, p := range []string{"```json", "```JSON", "```"} {
		t = strings.TrimPrefix(t, p)
	}
	t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "```"))
	if !strings.HasPrefix(t, "{") {
		return 0, nil, false
	}
	var obj map[string]any
	if json.Unmarshal([]byte(t), &obj) != nil {
		return 0, nil, false
	}
	lower := map[string]any{}
	for k, v := range obj {
		lower[strings.ToLower(strings.TrimSpace(k))] = v
	}
	for _, k := range jsonKeys {
		v, present := lower[k]
		if !present {
			continue
		}
		var x float64
		switch n := v.(type) {
		case float64:
			x = n
		case string:
			f, ok := number(strings.TrimSuffix(strings.TrimSpace(n), "分"))
			if !ok {
				return 0, parseErr(ReasonNoScore, "JSON 字段“%s”不是数字：“%s”", "JSON %q is not a number: %q", k, clip(n)), true
			}
			x = f
		default:
			return 0, parseErr(ReasonNoScore, "JSON 字段“%s”不是数字", "JSON %q is not a number", k), true
		}
		return x, check(x, "", min, max), true
	}
	return 0, parseErr(ReasonNoScore, "JSON 回复中没有分数字段", "the JSON reply has no score field"), true
}

// bareScore reads the last line when it holds nothing but a score: "8",
// "8分", "8/10", "[[8]]" (unwrapped by clean).
func bareScore(s string, min, max int) (float64, *ParseError, bool) {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.Trim(strings.TrimSpace(lines[i]), "\"'.。!！>#*_ ")
		if l == "" {
			continue
		}
		m := bareLine.FindStringSubmatch(l)
		if m == nil {
			return 0, nil, false
		}
		v, ok := number(m[1])
		if !ok {
			return 0, nil, false
		}
		return v, check(v, m[2]+m[3], min, max), true
	}
	return 0, nil, false
}

// chineseFen is a number in Chinese numerals with 分 after it, not 分钟 …
var chineseFen = regexp.MustCompile(`[零〇一二两三四五六七八九十]分(?:[^钟析别享开配布散数类支]|$)`)

// ParseScore reads a score on [min, max] from a judge's reply content. It
// reads the verdict line the rubric prompt asks for (评分：N / Score: N, or a
// final total, on a line of its own) and nothing else: a per-item point is
// never taken for the score. No verdict line, or one it cannot read, is
// unscorable; a number after the verdict line (a recap, a correction, a
// quoted score) or a second verdict line that disagrees makes the reply
// ambiguous. The error, when not nil, is a *ParseError.
func ParseScore(content string, min, max int) (float64, error) {
	s, err := clean(content)
	if err != nil {
		return 0, err
	}
	if v, perr, ok := jsonScore(s, min, max); ok {
		if perr != nil {
			return 0, perr
		}
		return v, nil
	}
	cs := verdictScores(s, min, max)
	if len(cs) == 0 {
		if v, perr, ok := bareScore(s, min, max); ok {
			if perr != nil {
				return 0, perr
			}
			return v, nil
		}
		return 0, parseErr(ReasonNoScore, "回复中没有“评分：分数”格式的结论行：“%s”", "no verdict line (Score: N) in %q", clip(s))
	}
	// The verdict is the last verdict line; failing one, the last labelled score.
	pick := len(cs) - 1
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].lineStart {
			pick = i
			break
		}
	}
	c := cs[pick]
	if rest := s[c.end:]; anyDigit.MatchString(rest) || chineseFen.MatchString(rest) {
		return 0, parseErr(ReasonAmbiguous, "结论行之后还有数字：“%s”", "numbers follow the verdict line: %q", clip(strings.TrimSpace(rest)))
	}
	if c.err != nil {
		return 0, c.err
	}
	for i, o := range cs {
		if i != pick && o.lineStart && (o.err != nil || o.v != c.v) {
			return 0, parseErr(ReasonAmbiguous, "两行结论不一致：“%s”与“%s”", "two verdict lines disagree: %q and %q", clip(s[o.start:o.end]), clip(s[c.start:c.end]))
		}
	}
	return c.v, nil
}

var (
	labelledYesNo = regexp.MustCompile(`(?i)(verdict|answer|judg(?:e)?ment|decision|conclusion|result|结论|判断|答案|回答|结果)` +
		`["'\s*_]*[:=]["'\s*_]*(yes|no|是|否|不是)`)
	yesNoWord = regexp.MustCompile(`\b(YES|NO)\b`)
)

func yesNoValue(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "yes", "是", "y", "true":
		return true, true
	case "no", "否", "不是", "n", "false":
		return false, true
	}
	return false, false
}

// ParseYesNo reads a YES/NO verdict from a judge's reply content.
// The error, when not nil, is a *ParseError.
func ParseYesNo(content string) (bool, error) {
	s, err := clean(content)
	if err != nil {
		return false, err
	}
	// Labelled verdicts, the last one wins; a word must end where the match does.
	ms := labelledYesNo.FindAllStringSubmatchIndex(s, -1)
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if r, _ := utf8.DecodeRuneInString(s[m[1]:]); r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			continue // "Answer: Nothing", "answer: yesterday"
		}
		v, _ := yesNoValue(s[m[4]:m[5]])
		return v, nil
	}
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.Trim(strings.TrimSpace(l), "\"'.。!！>#*_ "); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > 0 {
		for _, l := range []string{lines[len(lines)-1], lines[0]} {
			if v, ok := yesNoValue(l); ok {
				return v, nil
			}
		}
	}
	words := yesNoWord.FindAllString(s, -1)
	if len(words) > 0 {
		for _, w := range words[1:] {
			if w != words[0] {
				return false, parseErr(ReasonAmbiguous, "回复中既有“是”又有“否”：“%s”", "both YES and NO in %q", clip(s))
			}
		}
		return words[0] == "YES", nil
	}
	return false, parseErr(ReasonNoScore, "回复中没有“是/否”结论：“%s”", "no YES/NO verdict in %q", clip(s))
}

// Reparse reads a stored raw reply again, so a parser change re-scores old
// replies without calling the judge. YES/NO dimensions score 1 or 0. reason
// is "" when ok.
func Reparse(raw string, d Dimension) (score float64, ok bool, reason string) {
	var err error
	if d.Kind == KindYesNo {
		var yes bool
		yes, err = ParseYesNo(raw)
		if yes {
			score = 1
		}
	} else {
		score, err = ParseScore(raw, d.Min, d.Max)
	}
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return 0, false, pe.Reason()
		}
		return 0, false, err.Error()
	}
	if math.IsNaN(score) || math.IsInf(score, 0) {
		return 0, false, StoredReason(ReasonNoScore, "不是有限的数", "not a finite number")
	}
	return score, true, ""
}
