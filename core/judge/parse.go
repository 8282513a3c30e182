package judge

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reason codes of an unscorable reply.
const (
	ReasonEmpty      = "empty"        // no content (after removing <think> blocks)
	ReasonNoScore    = "no_score"     // no score could be found
	ReasonOutOfRange = "out_of_range" // a score outside the dimension's scale
	ReasonAmbiguous  = "ambiguous"    // a range, a different scale, or disagreeing numbers
	ReasonTruncated  = "truncated"    // cut off by the token limit or inside <think>
	ReasonEndpoint   = "endpoint"     // the call itself failed
)

// ParseError says why a reply yields no score.
type ParseError struct {
	Code   string // one of the Reason constants
	Detail string
}

func (e *ParseError) Error() string { return e.Code + ": " + e.Detail }

func parseErr(code, format string, args ...any) *ParseError {
	return &ParseError{Code: code, Detail: fmt.Sprintf(format, args...)}
}

var (
	thinkBlock = regexp.MustCompile(`(?s)<think>.*?</think>`)
	// Markup that wraps scores but carries no meaning for them.
	markup = strings.NewReplacer("**", "", "__", "", "`", "", "／", "/", "：", ":", "＝", "=",
		"０", "0", "１", "1", "２", "2", "３", "3", "４", "4", "５", "5", "６", "6", "７", "7", "８", "8", "９", "9",
		"．", ".", "－", "-", "\u2212", "-")
)

// clean applies apis.md §5 to a reply's content and normalises markup.
func clean(content string) (string, error) {
	if strings.Contains(content, "</think>") {
		content = thinkBlock.ReplaceAllString(content, "")
		if i := strings.LastIndex(content, "</think>"); i >= 0 {
			content = content[i+len("</think>"):]
		}
	} else if strings.Contains(content, "<think>") {
		return "", parseErr(ReasonTruncated, "the reply ends inside a <think> block")
	}
	content = strings.TrimSpace(content)
	if content == "" {
		return "", parseErr(ReasonEmpty, "the reply has no content")
	}
	return markup.Replace(content), nil
}

const numPat = `(-?\d+(?:\.\d+)?|[零〇一二两三四五六七八九十]+(?:点[零〇一二三四五六七八九]+)?)`

var (
	// A label, optional "(0-10)" aside, an optional connector, the number.
	labelled = regexp.MustCompile(`(?i)(\bfinal\s+score|\boverall\s+score|\btotal\s+score|\bscore|\brating|\bgrade|` +
		`最终得分|最终评分|综合评分|综合得分|总评分|总分|评分|得分|分数|打分)` +
		`["'\s#*_]*(?:[(（][^()（）\n]{0,20}[)）])?["'\s#*_]*` +
		`([:=]|\bis\b|\bof\b|为|是|-\s)?["'\s#*_:]*` + numPat)
	// After a number: "/10", "out of 10", "分（满分10分）".
	denominator = regexp.MustCompile(`(?i)^\s*分?\s*(?:/|\bout\s+of\b|[(（]?\s*满分)\s*(\d+)`)
	// After a number: "-7", "~ 7", "到七", "or 7": a range, not a score.
	rangeTail = regexp.MustCompile(`(?i)^\s*分?\s*(?:-|–|—|~|～|到|至|\bor\b|或)\s*(?:\d|[一二两三四五六七八九十])`)
	fraction  = regexp.MustCompile(`(?i)(-?\d+(?:\.\d+)?)\s*(?:/|\bout\s+of\b)\s*(\d+)`)
	fen       = regexp.MustCompile(numPat + `\s*分`)
	verb      = regexp.MustCompile(`(?i)\b(?:i|i'd|i'll|we|would|will|can|could)\s+(?:\w+\s+)?(?:give|rate|assign|award)\s+` +
		`(?:it|this|the\s+answer|this\s+answer|the\s+response|this\s+response)?\s*(?:an?\s+)?(?:score\s+of\s+)?(-?\d+(?:\.\d+)?)\b`)
	bareLine = regexp.MustCompile(`(?i)^` + numPat + `\s*(?:分|points?|/\s*(\d+))?$`)
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

// candidate is one score found in the text.
type candidate struct {
	v      float64
	strong bool        // labelled with a colon / at the start of a line
	err    *ParseError // set when the candidate itself is unusable
}

func check(v float64, denom string, min, max int) candidate {
	if denom != "" {
		if d, _ := strconv.Atoi(denom); d != max {
			return candidate{v: v, err: parseErr(ReasonAmbiguous, "score %g/%s is on another scale than %d–%d", v, denom, min, max)}
		}
	}
	if v < float64(min) || v > float64(max) {
		return candidate{v: v, err: parseErr(ReasonOutOfRange, "score %g is outside %d–%d", v, min, max)}
	}
	return candidate{v: v}
}

// atLineStart reports whether only blanks and markup precede i on its line.
func atLineStart(s string, i int) bool {
	j := strings.LastIndexByte(s[:i], '\n') + 1
	return strings.TrimLeft(s[j:i], " \t#*_->\"'{[0123456789.)") == ""
}

func labelledScores(s string, min, max int) []candidate {
	var out []candidate
	for _, m := range labelled.FindAllStringSubmatchIndex(s, -1) {
		numStart, numEnd := m[6], m[7]
		v, ok := number(s[numStart:numEnd])
		if !ok {
			continue
		}
		tail := s[numEnd:]
		// 评分：一般 ("average") is a word, not the number one.
		if r, _ := utf8.DecodeRuneInString(tail); r != '分' && unicode.Is(unicode.Han, r) && !isDigits(s[numStart:numEnd]) {
			continue
		}
		strong := (m[4] >= 0 && strings.ContainsAny(s[m[4]:m[5]], ":=")) || atLineStart(s, m[2])
		if rangeTail.MatchString(tail) {
			out = append(out, candidate{v: v, strong: strong, err: parseErr(ReasonAmbiguous, "a range, not one score: %q", clip(s[m[0]:]))})
			continue
		}
		denom := ""
		if d := denominator.FindStringSubmatch(tail); d != nil {
			denom = d[1]
		}
		c := check(v, denom, min, max)
		c.strong = strong
		out = append(out, c)
	}
	return out
}

func clip(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

// phraseScores finds unlabelled shapes: "7/10", "7 out of 10", "7分", "I would give it 7".
func phraseScores(s string, min, max int) []candidate {
	var out []candidate
	for _, m := range fraction.FindAllStringSubmatchIndex(s, -1) {
		// Skip dates and paths such as 2024/10/1.
		if m[0] > 0 && (s[m[0]-1] == '/' || unicode.IsDigit(rune(s[m[0]-1]))) {
			continue
		}
		if rest := s[m[1]:]; len(rest) > 1 && rest[0] == '/' && rest[1] >= '0' && rest[1] <= '9' {
			continue
		}
		if d, _ := strconv.Atoi(s[m[4]:m[5]]); d != max {
			continue // another scale: a criterion's 2/2, a share, a date
		}
		v, _ := strconv.ParseFloat(s[m[2]:m[3]], 64)
		out = append(out, check(v, "", min, max))
	}
	for _, m := range fen.FindAllStringSubmatchIndex(s, -1) {
		// 分 followed by a letter is another word: 分钟, 分析, 十分准确 (very accurate).
		if r, _ := utf8.DecodeRuneInString(s[m[1]:]); unicode.IsLetter(r) {
			continue
		}
		// 满分10分 states the scale, not the score.
		if strings.HasSuffix(strings.TrimRight(s[:m[2]], " "), "满分") {
			continue
		}
		if v, ok := number(s[m[2]:m[3]]); ok {
			out = append(out, check(v, "", min, max))
		}
	}
	for _, m := range verb.FindAllStringSubmatchIndex(s, -1) {
		v, _ := strconv.ParseFloat(s[m[2]:m[3]], 64)
		out = append(out, check(v, "", min, max))
	}
	return out
}

// bareScore reads a line that holds nothing but a number: the last line
// first (a verdict after reasoning), then the first (LlamaIndex's "4.0\nreason").
func bareScore(s string, min, max int) (candidate, bool) {
	lines := strings.Split(s, "\n")
	var nonEmpty []string
	for _, l := range lines {
		l = strings.Trim(strings.TrimSpace(l), "\"'.。!！>#*_ ")
		if l != "" {
			nonEmpty = append(nonEmpty, l)
		}
	}
	if len(nonEmpty) == 0 {
		return candidate{}, false
	}
	for _, l := range []string{nonEmpty[len(nonEmpty)-1], nonEmpty[0]} {
		if m := bareLine.FindStringSubmatch(l); m != nil {
			if v, ok := number(m[1]); ok {
				return check(v, m[2], min, max), true
			}
		}
	}
	return candidate{}, false
}

// ParseScore reads a score on [min, max] from a judge's reply content.
// The error, when not nil, is a *ParseError.
func ParseScore(content string, min, max int) (float64, error) {
	s, err := clean(content)
	if err != nil {
		return 0, err
	}
	pick := func(c candidate) (float64, error) {
		if c.err != nil {
			return 0, c.err
		}
		return c.v, nil
	}
	if cs := labelledScores(s, min, max); len(cs) > 0 {
		for i := len(cs) - 1; i >= 0; i-- {
			if cs[i].strong {
				return pick(cs[i])
			}
		}
		return pick(cs[len(cs)-1])
	}
	if cs := phraseScores(s, min, max); len(cs) > 0 {
		for _, c := range cs[1:] {
			if c.v != cs[0].v {
				return 0, parseErr(ReasonAmbiguous, "unlabelled scores disagree: %g and %g", cs[0].v, c.v)
			}
		}
		return pick(cs[0])
	}
	if c, ok := bareScore(s, min, max); ok {
		return pick(c)
	}
	return 0, parseErr(ReasonNoScore, "no score found in %q", clip(s))
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
				return false, parseErr(ReasonAmbiguous, "both YES and NO in %q", clip(s))
			}
		}
		return words[0] == "YES", nil
	}
	return false, parseErr(ReasonNoScore, "no YES/NO verdict in %q", clip(s))
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
		return 0, false, err.Error()
	}
	if math.IsNaN(score) || math.IsInf(score, 0) {
		return 0, false, ReasonNoScore + ": not a finite number"
	}
	return score, true, ""
}
