package ingest

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// resolveGuide maps a reference (a guide's id or title) to the guide's id:
// as written, or after normalising width, spaces and case (Ｇ７ and "G 7"
// are G7). A title several guides share resolves to none of them: shared
// lists their ids, so the caller can name the candidates instead of
// guessing (a 越秀区 question must not get 天河区's guide of the same
// name). haveGuides is false when the workbook has no guides at all, in
// which case references cannot be checked.
func (l *loader) resolveGuide(ref string) (id string, ok, haveGuides bool, shared []string) {
	if l.opt.GuideSink != nil {
		if l.sinkCount == 0 {
			return "", false, false, nil
		}
		id, ok, err := l.opt.GuideRef(ref)
		if f := foldRef(ref); !ok && err == nil && f != ref && f != "" { // Ｇ７ or "G 7" for G7
			id, ok, err = l.opt.GuideRef(f)
		}
		if err != nil && l.sinkErr == nil {
			l.sinkErr = err
		}
		if ok && id != ref && l.opt.GuideTitled != nil { // matched by title: is it shared?
			ids, err := l.opt.GuideTitled(ref)
			if err != nil && l.sinkErr == nil {
				l.sinkErr = err
			}
			if len(ids) > 1 {
				return "", false, true, ids
			}
		}
		return id, ok, true, nil
	}
	index := l.guideIndex()
	if index == nil {
		return "", false, false, nil
	}
	if gi, ok := index[ref]; ok {
		return l.wb.Guides[gi].ID, true, true, nil
	}
	if ids := l.shared[ref]; len(ids) > 0 {
		return "", false, true, ids
	}
	n := normRef(ref)
	if ids := l.shared[n]; len(ids) > 0 {
		return "", false, true, ids
	}
	if gi, ok := l.norm[n]; ok && gi >= 0 {
		return l.wb.Guides[gi].ID, true, true, nil
	}
	return "", false, true, nil
}

// foldRef is normRef without the case folding, for a store that matches
// exactly: full-width forms to half-width, no white space.
func foldRef(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, width.Fold.String(s))
}

// normRef folds a reference for matching: full-width forms to half-width,
// no white space, upper case.
func normRef(s string) string {
	s = width.Fold.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if !unicode.IsSpace(r) {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// guideIndex maps guide ids and the titles only one guide has to indexes
// (ids win, as in dataset.Workbook.GuideIndex); nil when there are no
// guides. It also builds the normalised index and the shared titles.
func (l *loader) guideIndex() map[string]int {
	if len(l.wb.Guides) == 0 {
		return nil
	}
	if l.index != nil {
		return l.index
	}
	l.index = make(map[string]int, len(l.guideIDs)*2)
	l.norm = make(map[string]int, len(l.guideIDs)*2)
	l.shared = map[string][]string{}
	titles := map[string][]int{}
	for i, g := range l.wb.Guides {
		if _, taken := l.guideIDs[g.Title]; !taken {
			titles[g.Title] = append(titles[g.Title], i)
		}
	}
	normAdd := func(key string, i int) {
		if j, dup := l.norm[key]; dup && j != i {
			l.norm[key] = -1
			return
		}
		l.norm[key] = i
	}
	for title, gs := range titles {
		if len(gs) == 1 {
			l.index[title] = gs[0]
			normAdd(normRef(title), gs[0])
			continue
		}
		for _, i := range gs {
			l.shared[title] = append(l.shared[title], l.wb.Guides[i].ID)
		}
		l.shared[normRef(title)] = l.shared[title]
	}
	for id, i := range l.guideIDs {
		l.index[id] = i
		normAdd(normRef(id), i)
	}
	return l.index
}

// listSeparators are what officers type between retrieved entries: 、，；
// and their ASCII forms, bars, and white space.
func isListSeparator(r rune) bool {
	switch r {
	case '、', '，', ',', '；', ';', '|', '｜', '／', '/':
		return true
	}
	return unicode.IsSpace(r)
}

// splitEntry reads an entry that names no guide as a list typed by hand
// ("G3、G4", "G5，G6", "G7 G8"): when every part names a guide, the parts
// are the entries; otherwise the entry stays as it is (a title may hold a
// 、 or a comma).
func (l *loader) splitEntry(entry string) ([]string, bool) {
	parts := strings.FieldsFunc(entry, isListSeparator)
	if len(parts) < 2 {
		return nil, false
	}
	ids := make([]string, len(parts))
	for i, p := range parts {
		id, ok, _, _ := l.resolveGuide(p)
		if !ok {
			return nil, false
		}
		ids[i] = id
	}
	return ids, true
}

// nearestGuide names the guide whose id or title is closest to ref, for a
// message ("did you mean …"); "" when none is within half of ref's length or
// the knowledge base is too large to search.
func (l *loader) nearestGuide(ref string) string {
	const maxSearch = 200_000
	if l.opt.GuideSink != nil || len(l.wb.Guides) > maxSearch {
		return ""
	}
	r := []rune(normRef(ref))
	best, name := len(r)/2+1, ""
	for _, g := range l.wb.Guides {
		for _, cand := range []string{g.ID, g.Title} {
			c := []rune(normRef(cand))
			if abs(len(c)-len(r)) >= best {
				continue
			}
			if d := editDistance(r, c); d < best && d > 0 {
				best, name = d, g.ID
				if g.Title != "" && g.Title != g.ID {
					name = g.ID + "（" + g.Title + "）"
				}
			}
		}
	}
	return name
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// sharedTitle is the error for a reference that names a title several
// guides share.
func (q *qaBuilder) sharedTitle(row int, label, what, whatZH, ref string, ids []string) {
	q.c.rowProblem(row, label, CodeAmbiguousTitle, SeverityError,
		fmt.Sprintf("the %s %q is the title of %d guides (%s); write the id of the one meant.", what, ref, len(ids), strings.Join(ids, ", ")),
		fmt.Sprintf("%s“%s”是 %d 条指南共用的名称（%s）；请改写为所指指南的编号。", whatZH, ref, len(ids), strings.Join(ids, "、")))
}
