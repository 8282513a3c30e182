package ui

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/explain"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/result"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// questionGrid is the Results tab's question matrix: one row per question,
// a column per judge and dimension (rag scores), the gold guide's rank, the
// overall score, the judges' spread and explain's weakness flags. Headers
// sort, the check boxes filter by weakness (counted as explain.Classify
// counts them, so they agree with the why panel), the entry searches id and
// question; a row opens the question's detail in place of the grid.
type questionGrid struct {
	sh     shell
	onOpen func(itemIndex int)

	model   *gridModel
	order   []int // every row, sorted
	view    []int // the rows shown, in order
	sortCol int
	desc    bool
	sorted  *gridCol // the column a header click sorted on; nil: the overall score
	gen     int      // models shown so far: a model built off the UI thread for an older result is dropped
	widths  map[widthKey]float32
	mask    uint8
	query   string
	built   int // cells built or updated since the last refresh (for the tests)

	table   *widget.Table
	checks  []*widget.Check
	search  *widget.Entry
	count   *widget.Label
	list    *fyne.Container
	detail  *fyne.Container
	content *fyne.Container
}

// newQuestionGrid builds an empty grid; refresh fills it. onOpen (may be
// nil) hears which workbook item a click opened.
func newQuestionGrid(sh shell, onOpen func(itemIndex int)) *questionGrid {
	g := &questionGrid{sh: sh, onOpen: onOpen}
	g.table = widget.NewTableWithHeaders(
		func() (int, int) {
			if g.model == nil {
				return 0, 0
			}
			return len(g.view), len(g.model.cols)
		},
		newGridCell,
		g.updateCell)
	g.table.ShowHeaderColumn = false
	// The id and the question stay on screen while the judges' columns
	// scroll past (gridModel's first two columns).
	g.table.StickyColumnCount = 2
	g.table.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Importance = widget.LowImportance
		b.Alignment = widget.ButtonAlignLeading
		return b
	}
	g.table.UpdateHeader = g.updateHeader
	g.table.OnSelected = func(id widget.TableCellID) {
		g.table.UnselectAll()
		if id.Row >= 0 && id.Row < len(g.view) {
			g.open(g.view[id.Row])
		}
	}
	for i, code := range gridReasons {
		bit := uint8(1) << i
		c := widget.NewCheck(reasonName(code), func(on bool) {
			if on {
				g.mask |= bit
			} else {
				g.mask &^= bit
			}
			g.applyFilter()
		})
		g.checks = append(g.checks, c)
	}
	g.search = widget.NewEntry()
	g.search.SetPlaceHolder(tr("grid.search"))
	g.search.OnChanged = func(s string) {
		g.query = strings.ToLower(strings.TrimSpace(s))
		g.applyFilter()
	}
	g.count = widget.NewLabel("")
	checks := container.NewHBox()
	for _, c := range g.checks {
		checks.Add(c)
	}
	bar := container.NewBorder(nil, nil, checks, g.count, g.search)
	g.list = container.NewBorder(bar, nil, nil, nil, g.table)
	g.detail = container.NewStack()
	g.detail.Hide()
	g.content = container.NewStack(g.list, g.detail)
	return g
}

// object is what the Results tab mounts.
func (g *questionGrid) object() fyne.CanvasObject { return g.content }

// reasonName is a weakness reason's glossary name.
func reasonName(code string) string {
	ids := map[string]glossary.ID{explain.ReasonNotRetrieved: glossary.NotRetrieved, explain.ReasonLowScore: glossary.LowScore,
		explain.ReasonJudgesDisagree: glossary.JudgesDisagree, explain.ReasonUnscorable: glossary.Unscorable}
	return glossary.Term(ids[code], currentLanguage())
}

// refresh shows sess's last result (none: an empty grid), filters, search
// and sort kept (worst first by the overall score until a header is
// clicked). The model is built off the UI thread — 26–44 ms at 10,000
// questions, more than a frame — and shown when ready; until then the grid
// is empty rather than showing rows of another result.
func (g *questionGrid) refresh(sess *session.Session) {
	var res *result.Outcome
	if sess != nil {
		res = sess.Result()
	}
	g.showResult(res)
}

// buildGridModel builds a grid model; tests watch where it runs.
var buildGridModel = newGridModel

// showResult shows res, building its model off the UI thread unless the
// grid shows it already.
func (g *questionGrid) showResult(res *result.Outcome) {
	if res != nil && g.model != nil && g.model.res == res {
		g.refreshModel(g.model)
		return
	}
	g.refreshModel(nil)
	if res == nil {
		return
	}
	gen := g.gen
	do := g.sh.do
	if do == nil {
		do = fyne.Do
	}
	go func() {
		m := buildGridModel(res)
		do(func() {
			if g.gen == gen { // nothing newer was shown meanwhile
				g.refreshModel(m)
			}
		})
	}()
}

// refreshModel shows m (nil: nothing) on the UI thread: a model built
// already, so that this only sorts (not at all for the default order),
// filters and redraws.
func (g *questionGrid) refreshModel(m *gridModel) {
	g.gen++
	g.model = m
	g.built = 0
	if g.detail.Visible() {
		g.showList()
	}
	for i, c := range g.checks {
		n := 0
		if m != nil {
			n = m.counts[i]
		}
		if text := fmt.Sprintf("%s (%d)", reasonName(gridReasons[i]), n); c.Text != text {
			c.Text = text
			c.Refresh()
		}
	}
	if m == nil {
		g.order, g.view = g.order[:0], g.view[:0]
		g.count.SetText("")
		g.table.Refresh()
		return
	}
	for c, col := range m.cols {
		g.table.SetColumnWidth(c, g.columnWidth(col))
	}
	g.sortCol, g.desc = g.sortColumn(m)
	g.resort()
}

// sortColumn is the column of m to sort on: the one a header click chose,
// when m has it (same judge and dimension), else the overall score, worst
// first.
func (g *questionGrid) sortColumn(m *gridModel) (int, bool) {
	if g.sorted != nil {
		for c, col := range m.cols {
			if col.kind == g.sorted.kind && col.judgeName == g.sorted.judgeName && col.dimName == g.sorted.dimName {
				return c, g.desc
			}
		}
	}
	return m.overall, false
}

func (g *questionGrid) overallCol() int {
	for c, col := range g.model.cols {
		if col.kind == gcOverall {
			return c
		}
	}
	return 0
}

// sortBy sorts by column c, worst first; again on the same column flips it.
func (g *questionGrid) sortBy(c int) {
	if g.model == nil || c < 0 || c >= len(g.model.cols) {
		return
	}
	if c == g.sortCol {
		g.desc = !g.desc
	} else {
		g.sortCol, g.desc = c, false
	}
	col := g.model.cols[c]
	g.sorted = &col
	g.resort()
}

func (g *questionGrid) resort() {
	if g.model.worst != nil && g.sortCol == g.model.overall && !g.desc {
		g.order = append(g.order[:0], g.model.worst...) // sorted off the UI thread
	} else {
		g.order = g.model.sorted(g.order, g.sortCol, g.desc)
	}
	g.applyFilter()
}

func (g *questionGrid) applyFilter() {
	if g.model == nil {
		return
	}
	g.view = g.model.filter(g.view, g.order, g.mask, g.query)
	g.count.SetText(trf("grid.count", map[string]any{"N": len(g.view), "Total": g.model.rows()}))
	g.table.ScrollToTop()
	g.table.Refresh()
}

// widthKey is a header text at a text size and padding.
type widthKey struct {
	text      string
	size, pad float32
}

// columnWidth fits a column's header (cells are short numbers or cut text).
func (g *questionGrid) columnWidth(col gridCol) float32 {
	switch col.kind {
	case gcQuestion:
		return 300
	case gcFlags:
		return 260
	}
	text := g.title(col) + " ▲"
	if col.kind == gcRank && len(tr("grid.not_retrieved")) > len(text) {
		text = tr("grid.not_retrieved")
	}
	key := widthKey{text, theme.TextSize(), theme.Padding()}
	if w, ok := g.widths[key]; ok { // measured once per header text, not per result
		return w
	}
	w := max(fyne.MeasureText(text, key.size, fyne.TextStyle{}).Width+4*key.pad, 72)
	if g.widths == nil {
		g.widths = map[widthKey]float32{}
	}
	g.widths[key] = w
	return w
}

// title is a column's header, capitalised as a heading in English.
func (g *questionGrid) title(col gridCol) string {
	return headingCase(g.rawTitle(col))
}

// headingCase capitalises a glossary term (lower case in running text)
// when it stands as a heading in English.
func headingCase(t string) string {
	if r, n := utf8.DecodeRuneInString(t); n > 0 && currentLanguage() != "zh" {
		t = string(unicode.ToUpper(r)) + t[n:]
	}
	return t
}

func (g *questionGrid) rawTitle(col gridCol) string {
	lang := currentLanguage()
	switch col.kind {
	case gcID:
		return tr("grid.col_id")
	case gcQuestion:
		return tr("col.question")
	case gcScore:
		d := glossary.Name(glossary.DimensionID, col.dimName, lang)
		if len(g.model.res.Summary.Judges) > 1 {
			return judgeLabel(col.judgeName) + " · " + d
		}
		return d
	case gcRank:
		return glossary.Term(glossary.Rank, lang)
	case gcOverall:
		return tr("grid.col_overall")
	case gcSD:
		return tr("grid.col_sd")
	case gcFlags:
		return tr("grid.col_flags")
	}
	return ""
}

func (g *questionGrid) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
	b := o.(*widget.Button)
	if g.model == nil || id.Row != -1 || id.Col < 0 || id.Col >= len(g.model.cols) {
		b.SetText("")
		b.OnTapped = nil
		return
	}
	t := g.title(g.model.cols[id.Col])
	if id.Col == g.sortCol {
		t += map[bool]string{false: " ▲", true: " ▼"}[g.desc]
	}
	b.SetText(t)
	c := id.Col
	b.OnTapped = func() { g.sortBy(c) }
}

// gridCell is one table cell: a fill and a short text for numbers, or a
// label that cuts long text (questions, flags) at the column's edge.
type gridCell struct {
	widget.BaseWidget
	bg    *canvas.Rectangle
	label *canvas.Text
	long  *flowText // one row, cut with "…" at the column's edge
}

func newGridCell() fyne.CanvasObject {
	c := &gridCell{bg: canvas.NewRectangle(color.Transparent), label: canvas.NewText("", theme.Color(theme.ColorNameForeground)),
		long: newFitLabel("")}
	c.long.Hide()
	c.ExtendBaseWidget(c)
	return c
}

func (c *gridCell) CreateRenderer() fyne.WidgetRenderer {
	return &gridCellRenderer{c: c}
}

type gridCellRenderer struct{ c *gridCell }

func (r *gridCellRenderer) Layout(s fyne.Size) {
	r.c.bg.Resize(s)
	p := theme.Padding()
	r.c.label.Move(fyne.NewPos(p, (s.Height-r.c.label.MinSize().Height)/2))
	r.c.label.Resize(fyne.NewSize(s.Width-2*p, r.c.label.MinSize().Height))
	r.c.long.Resize(s)
}
func (r *gridCellRenderer) MinSize() fyne.Size {
	h := fyne.MeasureText("Ag", theme.TextSize(), fyne.TextStyle{}).Height
	return fyne.NewSize(40, h+2*theme.Padding())
}
func (r *gridCellRenderer) Refresh() {
	r.c.bg.Refresh()
	r.c.label.Refresh()
	r.c.long.Refresh()
}
func (r *gridCellRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.c.bg, r.c.label, r.c.long}
}
func (r *gridCellRenderer) Destroy() {}

func (g *questionGrid) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	c := o.(*gridCell)
	g.built++
	text, fill, ink := "", color.Color(color.Transparent), theme.Color(theme.ColorNameForeground)
	if g.model != nil && id.Row >= 0 && id.Row < len(g.view) && id.Col >= 0 && id.Col < len(g.model.cols) {
		text, fill, ink = g.cellText(g.view[id.Row], id.Col)
	}
	long := g.model != nil && id.Col >= 0 && id.Col < len(g.model.cols) && g.model.cols[id.Col].long()
	if long {
		c.label.Text = ""
		c.long.Show()
		c.long.SetText(text)
	} else {
		c.label.Text, c.label.Color = text, ink
		c.long.Hide()
	}
	c.bg.FillColor = fill
	c.Refresh()
}

// long says the column holds text that may need cutting.
func (c gridCol) long() bool { return c.kind == gcID || c.kind == gcQuestion || c.kind == gcFlags }

// cellText is what a cell shows and how it is coloured.
func (g *questionGrid) cellText(row, c int) (string, color.Color, color.Color) {
	m := g.model
	col := m.cols[c]
	fg := theme.Color(theme.ColorNameForeground)
	naInk := theme.Color(theme.ColorNameDisabled)
	v, ok := m.val[c][row], m.ok[c][row]
	switch col.kind {
	case gcID:
		return m.ids[row], color.Transparent, fg
	case gcQuestion:
		return m.text[row], color.Transparent, fg
	case gcScore, gcOverall:
		if !ok {
			return tr("na"), color.Transparent, naInk
		}
		fill, ink := scoreColor((v - col.lo) / (col.hi - col.lo))
		return strconv.FormatFloat(v, 'f', 1, 64), fill, ink
	case gcRank:
		switch {
		case !ok:
			return tr("na"), color.Transparent, naInk
		case v == 0:
			fill, ink := scoreColor(0)
			return tr("grid.not_retrieved"), fill, ink
		}
		return "#" + strconv.Itoa(int(v)), color.Transparent, fg
	case gcSD:
		if !ok {
			return tr("na"), color.Transparent, naInk
		}
		return "±" + strconv.FormatFloat(v, 'f', 2, 64), color.Transparent, fg
	case gcFlags:
		return g.flagText(m.reasons[row]), color.Transparent, fg
	}
	return "", color.Transparent, fg
}

// flagText names a row's reasons; the strings are built once per language
// and reason set (16 of them), not per cell.
func (g *questionGrid) flagText(bitsSet uint8) string {
	lang := currentLanguage()
	if flagCache.lang != lang {
		flagCache.lang, flagCache.text = lang, map[uint8]string{}
	}
	if s, ok := flagCache.text[bitsSet]; ok {
		return s
	}
	var parts []string
	for i, code := range gridReasons {
		if bitsSet&(1<<i) != 0 {
			parts = append(parts, reasonName(code))
		}
	}
	s := strings.Join(parts, text.New("、", ", ").In(lang))
	flagCache.text[bitsSet] = s
	return s
}

var flagCache struct {
	lang text.Lang
	text map[uint8]string
}

// scoreScale is ColorBrewer's 5-class YlOrBr, dark for low: one hue family
// whose lightness falls steadily, so it reads in grey print and for every
// common colour-vision deficiency; the number is always printed as well.
var scoreScale = []color.NRGBA{
	{0x99, 0x34, 0x04, 0xff}, // < 0.2
	{0xd9, 0x5f, 0x0e, 0xff},
	{0xfe, 0x99, 0x29, 0xff},
	{0xfe, 0xd9, 0x8e, 0xff},
	{0xff, 0xff, 0xd4, 0xff}, // ≥ 0.8
}

// scoreColor is the fill and text colour for a score on 0–1.
func scoreColor(f float64) (color.Color, color.Color) {
	i := int(f * float64(len(scoreScale)))
	i = min(max(i, 0), len(scoreScale)-1)
	ink := color.Color(color.NRGBA{0x1a, 0x1a, 0x1a, 0xff})
	if i == 0 {
		ink = color.White
	}
	return scoreScale[i], ink
}

func (g *questionGrid) showList() {
	g.detail.Hide()
	g.detail.Objects = nil
	g.list.Show()
	g.content.Refresh()
}

// open shows row's detail in place of the grid.
func (g *questionGrid) open(row int) {
	if g.model == nil || row < 0 || row >= g.model.rows() {
		return
	}
	g.detail.Objects = []fyne.CanvasObject{g.buildDetail(row)}
	g.list.Hide()
	g.detail.Show()
	g.content.Refresh()
	if g.onOpen != nil && g.model.item[row] >= 0 {
		g.onOpen(g.model.item[row])
	}
}

// openItem opens the question at workbook index i (the why panel's links).
func (g *questionGrid) openItem(i int) {
	if g.model == nil {
		return
	}
	for row, it := range g.model.item {
		if it == i {
			g.open(row)
			return
		}
	}
}

func wrapped(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	l.Selectable = true
	return l
}

// buildDetail lays one question out: the three answers side by side, each
// judge's score and reason per dimension and answer set, the gold guide
// and the retrieved list with the gold guide marked.
func (g *questionGrid) buildDetail(row int) fyne.CanvasObject {
	m := g.model
	lang := currentLanguage()
	wb := m.res.Workbook
	d := m.detail(row)
	back := widget.NewButtonWithIcon(tr("grid.back"), theme.NavigateBackIcon(), g.showList)
	objs := []fyne.CanvasObject{}
	i := m.item[row]
	if i < 0 {
		objs = append(objs, wrapped(trf("grid.no_item", map[string]any{"ID": d.ID})))
		return container.NewBorder(back, nil, nil, nil, container.NewVScroll(container.NewVBox(objs...)))
	}
	it := wb.Items[i]
	objs = append(objs, heading("grid.question"), wrapped(it.ID+" · "+it.Question))
	if m.reasons[row] != 0 {
		objs = append(objs, wrapped("⚑ "+g.flagText(m.reasons[row])))
	}
	sets := []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull}
	answers := container.NewGridWithColumns(3)
	for _, set := range sets {
		id, _ := glossary.SetID(set)
		title := widget.NewLabelWithStyle(headingCase(glossary.Term(id, lang)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		title.Wrapping = fyne.TextWrapWord
		a := it.Answer(set)
		if strings.TrimSpace(a) == "" {
			a = tr("na")
		}
		answers.Add(container.NewVBox(title, wrapped(a)))
	}
	objs = append(objs, answers)

	// Scores: per judge, a row per dimension with the three sets' scores,
	// then the reasons.
	// CuBE's judges and dimensions come first; those only other methods
	// scored (CoFE's correctness …) follow in the scores' order.
	r := m.res.Summary.Result
	judges, dims := []string{}, append([]string{}, r.Dimensions...)
	for _, jr := range r.Judges {
		judges = append(judges, jr.Judge)
	}
	byKey := map[string][]dataset.Judgement{}
	for j := range wb.Scores.Values() {
		if j.ItemID == it.ID {
			k := j.Judge + "\x00" + j.Dimension + "\x00" + j.Set
			byKey[k] = append(byKey[k], j)
			if !slices.Contains(judges, j.Judge) {
				judges = append(judges, j.Judge)
			}
			if !slices.Contains(dims, j.Dimension) {
				dims = append(dims, j.Dimension)
			}
		}
	}
	for _, jn := range judges {
		objs = append(objs, widget.NewSeparator(), heading2(headingCase(glossary.Term(glossary.Judge, lang))+text.New("：", ": ").In(lang)+judgeLabel(jn)))
		table := container.NewGridWithColumns(4)
		table.Add(cellLabel(headingCase(glossary.Term(glossary.Dimension, lang)), true))
		for _, set := range sets {
			id, _ := glossary.SetID(set)
			l := widget.NewLabelWithStyle(headingCase(glossary.Term(id, lang)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			l.Wrapping = fyne.TextWrapWord
			table.Add(l)
		}
		var reasons []string
		for _, dim := range dims {
			if !hasDim(byKey, jn, dim, sets) && !slices.Contains(r.Dimensions, dim) {
				continue
			}
			dn := headingCase(glossary.Name(glossary.DimensionID, dim, lang))
			table.Add(cellLabel(dn, false))
			for _, set := range sets {
				js := byKey[jn+"\x00"+dim+"\x00"+set]
				table.Add(cellLabel(scoresText(js), false))
				for _, j := range js {
					why := j.Raw
					if !j.OK() {
						why = j.Reason
					}
					if why = judgeReason(why); why != "" {
						id, _ := glossary.SetID(set)
						line := dn + " · " + glossary.Term(id, lang)
						if len(js) > 1 {
							line += fmt.Sprintf(" #%d", max(j.Repeat, 1))
						}
						reasons = append(reasons, line+text.New("：", ": ").In(lang)+why)
					}
				}
			}
		}
		objs = append(objs, table)
		if len(reasons) > 0 {
			objs = append(objs, cellLabel(tr("grid.reasons"), true), wrapped(strings.Join(reasons, "\n")))
		}
	}

	objs = append(objs, widget.NewSeparator(), heading2(headingCase(glossary.Term(glossary.GoldGuide, lang))))
	guides := wb.GuideIndex()
	goldID := ""
	if gi, ok := guides[it.DocID]; ok {
		goldID = wb.Guides[gi].ID
		objs = append(objs, cellLabel(wb.Guides[gi].ID+" · "+wb.Guides[gi].Title, false), wrapped(wb.Guides[gi].Text))
	} else if it.DocID != "" {
		objs = append(objs, wrapped(trf("grid.gold_unknown", map[string]any{"ID": it.DocID})))
	} else {
		objs = append(objs, wrapped(tr("na")))
	}
	rank := tr("na")
	switch {
	case d.GoldKnown && d.Rank == 0:
		rank = tr("grid.not_retrieved")
	case d.GoldKnown:
		rank = "#" + strconv.Itoa(d.Rank)
	}
	objs = append(objs, heading2(headingCase(glossary.Term(glossary.Retrieved, lang))+text.New("（", " (").In(lang)+glossary.Term(glossary.Rank, lang)+text.New("：", ": ").In(lang)+rank+text.New("）", ")").In(lang)))
	if len(it.Retrieved) == 0 {
		objs = append(objs, wrapped(tr("na")))
	}
	for k, ret := range it.Retrieved {
		line := fmt.Sprintf("%d. %s", k+1, ret)
		gi, ok := guides[ret]
		if ok {
			line += " · " + wb.Guides[gi].Title
		}
		l := widget.NewLabel(line)
		l.Truncation = fyne.TextTruncateEllipsis
		if ok && goldID != "" && wb.Guides[gi].ID == goldID {
			l.Importance = widget.SuccessImportance
			l.TextStyle.Bold = true
			l.SetText("✓ " + line + "  ← " + glossary.Term(glossary.GoldGuide, lang))
		}
		objs = append(objs, l)
	}
	return container.NewBorder(back, nil, nil, nil, container.NewVScroll(container.NewVBox(objs...)))
}

// hasDim says judge scored dim on some answer set of the question.
func hasDim(byKey map[string][]dataset.Judgement, judge, dim string, sets []string) bool {
	for _, set := range sets {
		if len(byKey[judge+"\x00"+dim+"\x00"+set]) > 0 {
			return true
		}
	}
	return false
}

// heading2 is a section title from a ready text.
func heading2(s string) *widget.Label {
	l := widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.Importance = widget.HighImportance
	return l
}

// scoresText is one judge's score(s) of one answer on one dimension: the
// repeats side by side, 不适用 when there is none.
func scoresText(js []dataset.Judgement) string {
	if len(js) == 0 {
		return tr("na")
	}
	var parts []string
	for _, j := range js {
		if j.OK() {
			parts = append(parts, strconv.FormatFloat(j.Score, 'f', -1, 64))
		} else {
			parts = append(parts, glossary.Term(glossary.Unscorable, currentLanguage()))
		}
	}
	return strings.Join(parts, " / ")
}
