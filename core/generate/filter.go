package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/text"
)

// Filter codes, one per reason a question is doubted.
const (
	FlagUnanswerable  = "unanswerable"   // the critic says the guide does not answer it
	FlagCriticFailed  = "critic_failed"  // the critic could not be asked or read: not checked
	FlagVerbatim      = "verbatim"       // copies a passage of the guide
	FlagNearDuplicate = "near_duplicate" // says what another question says
	FlagTooShort      = "too_short"
	FlagTooLong       = "too_long"
	FlagWrongLanguage = "wrong_language"
)

// Flag is one filter's doubt about a question, with its reason in both
// languages (In gives it in one).
type Flag struct {
	Code string
	text.Text
}

// FilterOptions tune the filters; zero values take the defaults.
type FilterOptions struct {
	Lang          text.Lang      // the language questions must be in: zh or en
	MinRunes      int            // shorter is too short (default zh 6, en 15)
	MaxRunes      int            // longer is too long (default zh 80, en 250)
	VerbatimRunes int            // a copied passage this long is verbatim (default zh 15, en 50)
	DupCosine     float64        // at least this cosine is a near-duplicate (default 0.9)
	Embedder      embed.Embedder // nil is the offline hashed embedder
	Existing      []string       // questions already in the QA set, also checked for duplicates
}

func (o *FilterOptions) defaults() {
	en := o.Lang == text.EN
	set := func(v *int, zh, eng int) {
		if *v <= 0 {
			*v = zh
			if en {
				*v = eng
			}
		}
	}
	set(&o.MinRunes, 6, 15)
	set(&o.MaxRunes, 80, 250)
	set(&o.VerbatimRunes, 15, 50)
	if o.DupCosine <= 0 {
		o.DupCosine = 0.9
	}
	if o.Embedder == nil {
		o.Embedder = embed.NewHashed()
	}
}

// Filter runs the filters that need no model on the candidates, in order:
// length, language, verbatim copy of the guide, near-duplicate of an
// earlier question (or of an existing one). It adds flags; it removes
// nothing and decides nothing — the officer does.
func Filter(ctx context.Context, cands []Candidate, guides []dataset.Guide, o FilterOptions) error {
	o.defaults()
	byID := make(map[string]dataset.Guide, len(guides))
	for _, g := range guides {
		byID[g.ID] = g
	}
	for i := range cands {
		c := &cands[i]
		c.Flags = dropLocal(c.Flags)
		if f, ok := lengthFlag(c.Question, o); ok {
			c.Flags = append(c.Flags, f)
		}
		if f, ok := languageFlag(c.Question, o.Lang); ok {
			c.Flags = append(c.Flags, f)
		}
		if g, ok := byID[c.GuideID]; ok {
			if f, ok := verbatimFlag(c.Question, g, o.VerbatimRunes); ok {
				c.Flags = append(c.Flags, f)
			}
		}
	}
	return duplicates(ctx, cands, o)
}

// dropLocal removes earlier local flags so Filter can run again after an
// edit; the critic's stay.
func dropLocal(flags []Flag) []Flag {
	var out []Flag
	for _, f := range flags {
		if f.Code == FlagUnanswerable || f.Code == FlagCriticFailed {
			out = append(out, f)
		}
	}
	return out
}

func lengthFlag(q string, o FilterOptions) (Flag, bool) {
	n := len([]rune(strings.TrimSpace(q)))
	switch {
	case n < o.MinRunes:
		return Flag{FlagTooShort, text.New(fmt.Sprintf("太短：%d 个字，至少 %d 个字。", n, o.MinRunes), fmt.Sprintf("Too short: %d characters, at least %d.", n, o.MinRunes))}, true
	case n > o.MaxRunes:
		return Flag{FlagTooLong, text.New(fmt.Sprintf("太长：%d 个字，至多 %d 个字。", n, o.MaxRunes), fmt.Sprintf("Too long: %d characters, at most %d.", n, o.MaxRunes))}, true
	}
	return Flag{}, false
}

// languageFlag: a Chinese question is mostly Han characters among its
// letters; an English one has almost none.
func languageFlag(q string, lang text.Lang) (Flag, bool) {
	var han, letters int
	for _, r := range q {
		if unicode.Is(unicode.Han, r) {
			han++
			letters++
		} else if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters == 0 {
		return Flag{}, false
	}
	share := float64(han) / float64(letters)
	if lang == text.EN && share > 0.1 {
		return Flag{FlagWrongLanguage, text.New("语言不符：要求英文问题，但其中有中文。", "Wrong language: an English question was asked for, but it is written in Chinese.")}, true
	}
	if lang != text.EN && share < 0.3 {
		return Flag{FlagWrongLanguage, text.New("语言不符：要求中文问题，但其主要不是中文。", "Wrong language: a Chinese question was asked for, but it is mostly not Chinese.")}, true
	}
	return Flag{}, false
}

// compact keeps letters and digits, lower-cased: punctuation and spaces do
// not hide a copy.
func compact(s string) []rune {
	var out []rune
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, unicode.ToLower(r))
		}
	}
	return out
}

// verbatimFlag: the question shares a passage of at least min characters
// with the guide's text, the guide's title excepted (naming the service is
// no copy).
func verbatimFlag(q string, g dataset.Guide, min int) (Flag, bool) {
	body := g.Text
	if t := strings.TrimSpace(g.Title); t != "" {
		body = strings.ReplaceAll(body, t, "\u0001")
	}
	qs := compact(q)
	if t := strings.TrimSpace(g.Title); t != "" {
		qs = []rune(strings.ReplaceAll(string(qs), string(compact(t)), "\u0002"))
	}
	var gs []rune
	for _, r := range body {
		if r == '\u0001' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			gs = append(gs, unicode.ToLower(r))
		}
	}
	passage := longestCommon(qs, gs)
	if len([]rune(passage)) < min {
		return Flag{}, false
	}
	return Flag{FlagVerbatim, text.New(fmt.Sprintf("照抄指南原文：“%s”（%d 个字）。", passage, len([]rune(passage))), fmt.Sprintf("Copies the guide verbatim: \"%s\" (%d characters).", passage, len([]rune(passage))))}, true
}

// longestCommon is the longest common substring of a and b (dynamic
// programming over one row: the question is short).
func longestCommon(a, b []rune) string {
	if len(a) == 0 || len(b) == 0 {
		return ""
	}
	prev := make([]int, len(a)+1)
	cur := make([]int, len(a)+1)
	best, end := 0, 0
	for j := 1; j <= len(b); j++ {
		for i := 1; i <= len(a); i++ {
			if a[i-1] == b[j-1] {
				cur[i] = prev[i-1] + 1
				if cur[i] > best {
					best, end = cur[i], i
				}
			} else {
				cur[i] = 0
			}
		}
		prev, cur = cur, prev
	}
	return string(a[end-best : end])
}

// duplicates flags a question whose embedding is within o.DupCosine of an
// existing question or of an earlier candidate that is not itself a
// duplicate.
func duplicates(ctx context.Context, cands []Candidate, o FilterOptions) error {
	texts := append([]string(nil), o.Existing...)
	for _, c := range cands {
		texts = append(texts, c.Question)
	}
	cosine, err := similarity(ctx, o.Embedder, texts)
	if err != nil {
		return fmt.Errorf("generate: near-duplicate filter: %w", err)
	}
	ne := len(o.Existing)
	kept := make([]int, 0, len(texts))
	for i := 0; i < ne; i++ {
		kept = append(kept, i)
	}
	for i := range cands {
		best, bestCos := -1, 0.0
		for _, k := range kept {
			if cos := cosine(ne+i, k); cos >= o.DupCosine && cos > bestCos {
				best, bestCos = k, cos
			}
		}
		if best < 0 {
			kept = append(kept, ne+i)
			continue
		}
		other := texts[best]
		if best >= ne {
			other = cands[best-ne].ID + "：" + other
		}
		cands[i].Flags = append(cands[i].Flags, Flag{FlagNearDuplicate, text.New(fmt.Sprintf("与另一问题几乎相同（相似度 %.2f）：%s", bestCos, other), fmt.Sprintf("Near-duplicate of another question (cosine %.2f): %s", bestCos, other))})
	}
	return nil
}

// similarity embeds the texts once and returns their pairwise cosine; the
// sparse form when the embedder has one (the offline embedder's dense
// vectors are 1 MiB each).
func similarity(ctx context.Context, e embed.Embedder, texts []string) (func(i, j int) float64, error) {
	if se, ok := e.(embed.SparseEmbedder); ok {
		vs, err := se.EmbedSparse(ctx, texts)
		if err != nil {
			return nil, err
		}
		return func(i, j int) float64 { return embed.SparseCosine(vs[i], vs[j]) }, nil
	}
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("%s returned %d vectors for %d texts", e.Name(), len(vs), len(texts))
	}
	return func(i, j int) float64 { return embed.Cosine(vs[i], vs[j]) }, nil
}

// Critic asks the generator whether each candidate's guide answers it and
// flags those it says do not; a call that fails or a reply it cannot read
// flags the question as not checked, never as answerable.
func (g *Generator) Critic(ctx context.Context, cands []Candidate, guides []dataset.Guide) error {
	byID := make(map[string]dataset.Guide, len(guides))
	for _, gd := range guides {
		byID[gd.ID] = gd
	}
	for i := range cands {
		c := &cands[i]
		c.Flags = dropCritic(c.Flags)
		ok, reason, err := g.answerable(ctx, c.Question, byID[c.GuideID].Text)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		switch {
		case err != nil:
			c.Flags = append(c.Flags, Flag{FlagCriticFailed, text.New("未能检查能否由指南回答："+err.Error(), "Not checked against its guide: "+err.Error())})
		case !ok:
			c.Flags = append(c.Flags, Flag{FlagUnanswerable, text.New("指南回答不了这个问题："+reason, "Its guide does not answer it: "+reason)})
		}
	}
	return nil
}

func dropCritic(flags []Flag) []Flag {
	var out []Flag
	for _, f := range flags {
		if f.Code != FlagUnanswerable && f.Code != FlagCriticFailed {
			out = append(out, f)
		}
	}
	return out
}

func (g *Generator) answerable(ctx context.Context, question, document string) (bool, string, error) {
	msgs, err := g.render("critic", fields{Question: question, Document: document})
	if err != nil {
		return false, "", err
	}
	rep, err := g.ask(ctx, msgs, 0, true)
	if err != nil {
		return false, "", err
	}
	return ParseCritic(rep.Content)
}

// ParseCritic reads {"answerable": bool, "reason": "..."} from a reply
// (fences and prose around it allowed).
func ParseCritic(reply string) (bool, string, error) {
	raw := jsonObject.FindString(reply)
	if raw == "" {
		return false, "", fmt.Errorf("generate: critic reply has no JSON object")
	}
	var v struct {
		Answerable *bool  `json:"answerable"`
		Reason     string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return false, "", fmt.Errorf("generate: critic reply: %w", err)
	}
	if v.Answerable == nil {
		return false, "", fmt.Errorf("generate: critic reply lacks \"answerable\"")
	}
	return *v.Answerable, strings.TrimSpace(v.Reason), nil
}
