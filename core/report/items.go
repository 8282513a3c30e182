package report

import (
	"fmt"
	"sort"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
)

// tickEvery is how many streamed rows pass between progress reports.
const tickEvery = 2048

// itemsSheet streams one row per item: question, gold document, rank, the
// three answers, every judge's rag score per dimension, the disagreement,
// BLEU/ROUGE-L against the gold document and the MFSS total.
func (w *writer) itemsSheet() error {
	name := SheetItems
	l := w.itemsColumns()
	n := len(w.wb.Items)
	if err := w.itemsFormats(name, l, n); err != nil {
		return err
	}
	s, err := w.stream(name, l.widths, true)
	if err != nil {
		return err
	}
	s.height = 42 // the headers wrap to three lines
	cells := make([]any, len(l.head))
	for i, h := range l.head {
		st := w.st.header
		if c := i + 1; c == itemsMeanCol || c == itemsDisCol || c == 6 || c == 7 || c >= l.scoreFrom {
			st = w.st.headerNum // over numbers: right-aligned like them
		}
		cells[i] = styled{h, st}
	}
	if err := s.line(cells...); err != nil {
		return err
	}
	s.wrap = true
	s.height = 45
	details := map[string]*cube.ItemDetail{}
	if w.s.Result != nil {
		for i := range w.s.ItemDetails {
			details[w.s.ItemDetails[i].ID] = &w.s.ItemDetails[i]
		}
	}
	gidx := w.wb.GuideIndex()
	var scores *cube.ItemScores // each judge's rag score per item, as cube computed it
	if w.s.Result != nil {
		scores = w.s.RAGScores
	}
	row := make([]any, 0, len(l.head))
	missed, found := w.say(yesNo(true)), w.say(yesNo(false))
	for i, ix := range w.worstFirst(details) {
		it := &w.wb.Items[ix]
		title := ""
		if gi, ok := gidx[it.DocID]; ok && it.DocID != "" {
			title = w.wb.Guides[gi].Title
		}
		var rank, miss, rankScore, mean, dis any = w.na(), w.na(), (*float64)(nil), (*float64)(nil), (*float64)(nil)
		if d := details[it.ID]; d != nil {
			if d.GoldKnown {
				rank, miss = d.Rank, found
				if d.Rank == 0 {
					miss = missed
				}
			}
			rankScore, mean, dis = d.RankScore, d.RAGOverall, d.DisagreementOverall
		}
		row = w.itemsRow(row, l, it, title, rank, miss, rankScore, mean, dis, scores)
		if err := s.line(row...); err != nil {
			return err
		}
		if (i+1)%tickEvery == 0 {
			if err := w.tick(tickEvery); err != nil {
				return err
			}
		}
	}
	if err := w.tick(n % tickEvery); err != nil {
		return err
	}
	return s.flush()
}

// itemsLayout is the Items sheet's columns: their headers and widths,
// where the judges' scores are, and the MFSS totals when MFSS ran.
type itemsLayout struct {
	head               []string
	widths             []float64
	scoreFrom, scoreTo int                // the judges' score columns, 1-based
	mfssTotal          map[string]float64 // item → MFSS total of rag; nil when MFSS did not run
}

// The Items sheet's fixed columns (1-based): the mean, the retrieval miss
// and the disagreement a reader filters on. printCols are the columns a
// printout holds: id to the gold guide's title, the way from a reason on
// the Summary to its questions. The answers and every judge's scores stay
// on screen (about 690 pt wide, one landscape page at 100 %).
const (
	itemsMeanCol   = 3
	itemsMissCol   = 4
	itemsDisCol    = 5
	itemsPrintCols = 8
)

// itemsColumns lays out the Items sheet's columns.
func (w *writer) itemsColumns() itemsLayout {
	// The columns a reader filters on come first: the mean score (the
	// sort key, worst first), whether the gold guide was missed, how far
	// the judges disagree.
	head := []string{w.say(txtID), w.say(txtQuestion), w.say(itemsMeanScoreSystem),
		w.say(itemsGoldGuideNot), w.say(itemsJudgesDisagreeSD),
		w.say(itemsRankZeroNotRetrieved), w.say(itemsRankScore), w.say(itemsGoldGuideTitle), w.say(itemsGoldGuideID),
		w.say(itemsSystemAnswer), w.say(itemsNoContextAnswer), w.say(itemsGoldGuideAnswer)}
	widths := []float64{10, 40, 11, 10, 11, 9, 8, 24, 14, 50, 40, 40}
	scoreFrom := len(head) + 1
	for _, j := range w.judges {
		for _, d := range w.dims {
			head = append(head, w.judgeName(j)+" · "+w.dimTitle(d))
			widths = append(widths, 11)
		}
	}
	scoreTo := len(head)
	bl := w.s.Baselines
	if bl != nil {
		for _, set := range sets {
			head = append(head, "BLEU · "+set)
			widths = append(widths, 9)
		}
		for _, set := range sets {
			head = append(head, "ROUGE-L · "+set)
			widths = append(widths, 10)
		}
	}
	var mfssTotal map[string]float64
	if w.s.MFSS != nil {
		mfssTotal = map[string]float64{}
		for _, x := range w.s.MFSS.Items {
			if x.System == dataset.SetRAG {
				mfssTotal[x.ItemID] = x.Factors.Total
			}
		}
		head = append(head, w.say(itemsMFSSTotalRag))
		widths = append(widths, 10)
	}
	return itemsLayout{head: head, widths: widths, scoreFrom: scoreFrom, scoreTo: scoreTo, mfssTotal: mfssTotal}
}

// itemsFormats sets the Items sheet's filter, print area and colour
// scales over its n rows of items.
func (w *writer) itemsFormats(name string, l itemsLayout, n int) error {
	head, scoreFrom, scoreTo := l.head, l.scoreFrom, l.scoreTo
	meanCol, missCol, disCol, printCols := itemsMeanCol, itemsMissCol, itemsDisCol, itemsPrintCols
	lastRow := n + 1
	if err := w.f.AutoFilter(name, fmt.Sprintf("A1:%s%d", colName(len(head)), lastRow), nil); err != nil {
		return fmt.Errorf("report: items filter: %w", err)
	}
	// The filter rewrites the sheet's properties: fit to page again.
	yes := true
	if err := w.f.SetSheetProps(name, &excelize.SheetPropsOptions{FitToPage: &yes}); err != nil {
		return fmt.Errorf("report: items: %w", err)
	}
	if err := SetPrintArea(w.f, name, fmt.Sprintf("A1:%s%d", colName(printCols), lastRow)); err != nil {
		return err
	}
	if n > 0 {
		scale := excelize.ConditionalFormatOptions{Type: "3_color_scale", Criteria: "=", MinType: "num", MidType: "num", MaxType: "num",
			MinValue: "0", MidValue: "5", MaxValue: "10", MinColor: "#F8696B", MidColor: "#FFEB84", MaxColor: "#63BE7B"}
		if scoreTo >= scoreFrom {
			if err := w.f.SetConditionalFormat(name, fmt.Sprintf("%s2:%s%d", colName(scoreFrom), colName(scoreTo), lastRow), []excelize.ConditionalFormatOptions{scale}); err != nil {
				return fmt.Errorf("report: items colours: %w", err)
			}
		}
		if err := w.f.SetConditionalFormat(name, fmt.Sprintf("%s2:%s%d", colName(meanCol), colName(meanCol), lastRow), []excelize.ConditionalFormatOptions{scale}); err != nil {
			return fmt.Errorf("report: items colours: %w", err)
		}
		if missCol > 0 { // the retrieval misses in red, to find them without a filter
			miss := excelize.ConditionalFormatOptions{Type: "cell", Criteria: "==", Value: fmt.Sprintf("%q", w.say(yesNo(true))), Format: &w.st.missFmt}
			if err := w.f.SetConditionalFormat(name, fmt.Sprintf("%s2:%s%d", colName(missCol), colName(missCol), lastRow), []excelize.ConditionalFormatOptions{miss}); err != nil {
				return fmt.Errorf("report: items colours: %w", err)
			}
		}
		dis := excelize.ConditionalFormatOptions{Type: "2_color_scale", Criteria: "=", MinType: "num", MaxType: "max", MinValue: "0", MinColor: "#FFFFFF", MaxColor: "#F4B183"}
		if err := w.f.SetConditionalFormat(name, fmt.Sprintf("%s2:%s%d", colName(disCol), colName(disCol), lastRow), []excelize.ConditionalFormatOptions{dis}); err != nil {
			return fmt.Errorf("report: items colours: %w", err)
		}
	}
	return nil
}

// itemsRow is one item's row of the Items sheet, appended to row[:0].
func (w *writer) itemsRow(row []any, l itemsLayout, it *dataset.Item, title string, rank, miss, rankScore, mean, dis any, scores *cube.ItemScores) []any {
	nj, nd, bl, mfssTotal := len(w.judges), len(w.dims), w.s.Baselines, l.mfssTotal
	row = append(row[:0], it.ID, it.Question, mean, miss, dis, rank, rankScore, title, it.DocID,
		it.Answer(dataset.SetRAG), it.Answer(dataset.SetZero), it.Answer(dataset.SetFull))
	for ji := range nj {
		for di := range nd {
			if v, ok := scores.At(it.ID, ji, di); ok {
				row = append(row, v)
			} else {
				row = append(row, (*float64)(nil))
			}
		}
	}
	if bl != nil {
		per, ok := bl.PerItem[it.ID]
		for k := range 2 {
			for _, set := range sets {
				if v, has := per[set]; ok && has {
					row = append(row, v[k])
				} else {
					row = append(row, (*float64)(nil))
				}
			}
		}
	}
	if mfssTotal != nil {
		if v, ok := mfssTotal[it.ID]; ok {
			row = append(row, v)
		} else {
			row = append(row, (*float64)(nil))
		}
	}
	return row
}

// worstFirst orders the items by their mean system-answer score, lowest
// first, items without a score last, ties in workbook order: a reader
// going from a summary bullet to its questions finds them at the top.
func (w *writer) worstFirst(details map[string]*cube.ItemDetail) []int {
	order := make([]int, len(w.wb.Items))
	for i := range order {
		order[i] = i
	}
	score := func(i int) *float64 {
		if d := details[w.wb.Items[i].ID]; d != nil {
			return d.RAGOverall
		}
		return nil
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := score(order[a]), score(order[b])
		switch {
		case x == nil:
			return false
		case y == nil:
			return true
		}
		return *x < *y
	})
	return order
}
