package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/dataset"
)

// Default size limits.
const (
	DefaultUnzipSizeLimit = 1 << 30 // a workbook may unpack to 1 GiB
	// DefaultUnzipXMLSizeLimit is excelize's threshold: a sheet (or shared
	// strings) part up to this size is unpacked into memory, a larger one to
	// a temporary file it streams from. excelize's own 16 MiB, not more:
	// measured on a 200k-row guides sheet, 256 MiB held the 230 MB sheet XML
	// in memory (bare-loop peak heap 428 MB instead of 10 MB) for a ~25%
	// faster read.
	DefaultUnzipXMLSizeLimit = 16 << 20
	DefaultMaxCSVBytes       = 512 << 20 // a CSV, JSON or JSONL file may be 512 MiB
)

// Options tune reading.
type Options struct {
	// SkipBadRows leaves rows with errors out and lists their problems in
	// Report.Skipped; otherwise any error in Report.Problems means the caller
	// must not evaluate.
	SkipBadRows bool
	// UnzipSizeLimit caps the unpacked size of an .xlsx (excelize.Options).
	UnzipSizeLimit int64
	// UnzipXMLSizeLimit is excelize's threshold above which a sheet is
	// unpacked to a temporary file and streamed from disk instead of memory.
	UnzipXMLSizeLimit int64
	// MaxCSVBytes caps a CSV, JSON or JSONL file.
	MaxCSVBytes int64
	// GuideSink, when set, receives every good guide as it is read instead
	// of Workbook.Guides: a knowledge base of millions of guides streams
	// into the run store without being held in memory. Only ids, titles and
	// rows are kept, to check duplicates and resolve the QA sheet's
	// references. An error from the sink stops the read and is returned.
	GuideSink func(dataset.Guide) error
	// GuideRef resolves a reference (a guide's id or title) to the id of a
	// guide given to GuideSink, so the QA sheet's gold and retrieved
	// references are checked without keeping the guides. Required with
	// GuideSink.
	GuideRef func(ref string) (id string, ok bool, err error)
	// GuideTitled lists the ids of the guides given to GuideSink with a
	// title, so a reference by a title several guides share is an error
	// naming them, not the first one's id. Optional with GuideSink.
	GuideTitled func(title string) ([]string, error)
	// Password opens a password-protected workbook.
	Password string
	// Sheets names the sheet (or CSV file base name) to read for a kind
	// (SheetGuides, SheetQA, SheetScores, SheetHuman), overriding name matching.
	Sheets map[string]string
	// ReadHiddenSheets reads hidden and veryHidden sheets, and rows hidden
	// by a filter or by hand, like visible ones. Off by default: what the
	// officer cannot see must not decide the verdict (a veryHidden scores
	// sheet, a hidden qa sheet shadowing the visible one, withdrawn questions
	// filtered out), so hidden sheets and rows are left unread and named in
	// a warning.
	ReadHiddenSheets bool
	// ScoreScale gives a dimension's scale, against which imported scores
	// are checked (a 55 typed for 5 on 0–10 is an error naming its cell);
	// ok is false for a dimension whose scale is not known, whose scores are
	// not checked. Nil is the built-in dimensions' scales (BuiltinScale).
	ScoreScale func(dimension string) (lo, hi float64, ok bool)
	// TempDir is where temporary files go (a large shared string table
	// spilled from memory); default TempDir(), which CleanTemp empties of
	// files left by killed processes.
	TempDir string
}

func (o Options) withDefaults() Options {
	if o.UnzipSizeLimit <= 0 {
		o.UnzipSizeLimit = DefaultUnzipSizeLimit
	}
	if o.UnzipXMLSizeLimit <= 0 {
		o.UnzipXMLSizeLimit = min(DefaultUnzipXMLSizeLimit, o.UnzipSizeLimit)
	}
	if o.UnzipXMLSizeLimit > o.UnzipSizeLimit {
		o.UnzipXMLSizeLimit = o.UnzipSizeLimit
	}
	if o.MaxCSVBytes <= 0 {
		o.MaxCSVBytes = DefaultMaxCSVBytes
	}
	if o.TempDir == "" {
		o.TempDir = tempRoot
	}
	if o.ScoreScale == nil {
		o.ScoreScale = BuiltinScale
	}
	return o
}

// loader holds the state shared by the sheets of one workbook.
type loader struct {
	opt          Options
	wb           *dataset.Workbook
	rep          *Report
	guideIDs     map[string]int      // guide id → index
	index        map[string]int      // ids and titles → index, built on first use
	norm         map[string]int      // normalised ids and titles → index (-1: several)
	shared       map[string][]string // a title several guides share → their ids
	itemIDs      map[string]bool
	droppedItems map[string]bool
	haveQA       bool
	sysSeen      map[string]bool
	qa           *qaBuilder // shared by every QA source

	// Sink mode (Options.GuideSink): guides are not kept, so references
	// resolve through these instead of the index.
	// sinkRows maps a 64-bit hash of each guide id to its row: 12 bytes a
	// guide instead of the id itself, which keeps two million guides in
	// tens of megabytes. Two different ids share a hash with probability
	// about n²/2⁶⁵ (10⁻⁷ at two million), which would show as a spurious
	// duplicate-id message naming both rows.
	sinkRows  map[uint64]int32
	sinkCount int

	// Judgements across every scores sheet, for duplicates (see scoreKey).
	scoreSeen map[uint64]scoreSeen
	// scoreCollided holds, by their full key, the judgements whose hash an
	// earlier one of another key had (about one in ten million at 2.4M).
	scoreCollided map[string]scoreSeen
	scoreSheets   []string
	scales        map[string]scale // dimension → scale, as ScoreScale gave it
	interned      map[string]string
	sinkErr       error
}

// intern returns one shared copy of s, for the strings that repeat across
// millions of judgement rows.
func (l *loader) intern(s string) string {
	if v, ok := l.interned[s]; ok {
		return v
	}
	s = strings.Clone(s)
	l.interned[s] = s
	return s
}

func (l *loader) addSystem(set string) {
	if !l.sysSeen[set] {
		l.sysSeen[set] = true
		l.wb.Systems = append(l.wb.Systems, set)
	}
}

// source is one sheet, CSV or JSON file assigned to a sheet kind.
type source struct {
	kind   string
	t      *table // sheet or CSV
	json   string // path of a JSON or JSONL QA set
	label  string // sheet or file name, for problems
	hidden bool   // a hidden sheet, left unread (Options.ReadHiddenSheets)
}

// Open reads a workbook: an .xlsx file, a folder of CSV files (guides.csv,
// qa.csv, scores.csv, human.csv, or their aliases; qa may be .jsonl), a
// single .csv file, or a QA set as .jsonl or .json. Every data problem is in
// the Report; err is only for an input that cannot be read at all (missing,
// unreadable, cancelled).
func Open(ctx context.Context, path string, opt Options) (*dataset.Workbook, *Report, error) {
	opt = opt.withDefaults()
	if opt.GuideSink != nil && opt.GuideRef == nil {
		return nil, nil, fmt.Errorf("ingest: GuideSink needs GuideRef to resolve the QA sheet's references")
	}
	wb := &dataset.Workbook{Source: path}
	rep := &Report{}
	l := &loader{opt: opt, wb: wb, rep: rep, guideIDs: map[string]int{}, itemIDs: map[string]bool{},
		sinkRows: map[uint64]int32{}, scoreSeen: map[uint64]scoreSeen{}, interned: map[string]string{},
		droppedItems: map[string]bool{}, sysSeen: map[string]bool{}, scales: map[string]scale{}}
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("ingest: %w", err)
	}
	var f *xlsxBook
	var sources []source
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case st.IsDir():
		sources, err = l.folderSources(ctx, path)
	case ext == ".xlsx" || ext == ".xlsm" || ext == ".xls":
		var p *Problem
		f, p, err = openXLSX(path, opt)
		if p != nil {
			rep.Problems = append(rep.Problems, *p)
			return wb, rep, nil
		}
		if err == nil {
			defer f.Close()
			sources, err = l.sheetSources(ctx, path, f)
		}
	case isCSV(path):
		var t *table
		var p *Problem
		t, p, err = csvTable(path, opt)
		if p != nil {
			rep.Problems = append(rep.Problems, *p)
			return wb, rep, nil
		}
		if err == nil {
			sources, err = l.assign(ctx, path, []source{{kind: sheetKind(stem(path)), t: t, label: stem(path)}})
		}
	case ext == ".jsonl" || ext == ".json" || ext == ".ndjson":
		sources = []source{{kind: SheetQA, json: path}}
	default:
		rep.Problems = append(rep.Problems, Problem{File: path, Code: CodeUnsupported, Severity: SeverityError,
			EN: "this file type is not read; give an .xlsx workbook, a folder of CSV files, a .csv, or a .jsonl/.json QA set.",
			ZH: "不支持该文件类型；请提供 .xlsx 工作簿、CSV 文件夹、.csv 文件，或 .jsonl/.json 问答集。"})
		return wb, rep, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, kind := range sheetKinds {
		for _, s := range sources {
			if s.kind != kind {
				continue
			}
			if err := l.load(ctx, s); err != nil {
				return nil, nil, err
			}
		}
		if kind == SheetQA && l.qa != nil {
			l.qa.finish()
		}
	}
	if len(wb.Guides) == 0 && len(wb.Items) == 0 && wb.Scores.Len() == 0 && len(wb.Human) == 0 && !rep.HasErrors() {
		rep.Problems = append(rep.Problems, Problem{File: path, Code: CodeNoData, Severity: SeverityError,
			EN: "no guides, questions, scores or ratings were found; check the sheet names (guides/办事指南, qa/问答集, scores/评分, human/人工评分) and their header rows.",
			ZH: "未找到任何指南、问题、评分或人工评分；请检查工作表名称（guides/办事指南、qa/问答集、scores/评分、human/人工评分）及表头行。"})
	}
	return wb, rep, nil
}

func stem(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// sheetSources lists a workbook's sheets as sources. Hidden sheets are
// named in a warning and left unread unless Options.ReadHiddenSheets.
func (l *loader) sheetSources(ctx context.Context, path string, f *xlsxBook) ([]source, error) {
	var all []source
	for _, sh := range f.sheets {
		sh := sh
		t := &table{file: path, sheet: sh.name, rows: func(ctx context.Context, fn rowFunc) error {
			return f.rows(ctx, sh, fn, nil)
		}}
		t.full = func(ctx context.Context, fn rowFunc, notes func(sheetNote)) error {
			return f.rows(ctx, sh, fn, notes)
		}
		src := source{kind: sheetKind(sh.name), t: t, label: sh.name}
		if sh.hidden() && !l.opt.ReadHiddenSheets {
			src.kind, src.hidden = "", true
			how, howZH := "hidden", "隐藏"
			if sh.state == "veryHidden" {
				how, howZH = "very hidden (it can only be shown from the VBA editor)", "深度隐藏（只能在 VBA 编辑器中取消隐藏）"
			}
			l.rep.Problems = append(l.rep.Problems, Problem{File: path, Sheet: sh.name, Code: CodeHiddenSheet, Severity: SeverityWarning,
				EN: fmt.Sprintf("the sheet is %s, so it is not read: a sheet nobody sees must not decide the verdict. Unhide it in Excel, or choose to read hidden sheets, if it belongs to the evaluation.", how),
				ZH: fmt.Sprintf("该表为%s，未被读取：看不见的工作表不应左右评估结论。如该表属于评估内容，请在 Excel 中取消隐藏，或选择读取隐藏工作表。", howZH)})
		}
		all = append(all, src)
	}
	return l.assign(ctx, path, all)
}

// folderSources lists a folder's CSV and JSON files as sources, by name.
func (l *loader) folderSources(ctx context.Context, dir string) ([]source, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var all []source
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		ext := strings.ToLower(filepath.Ext(p))
		switch {
		case isCSV(p):
			t, prob, err := csvTable(p, l.opt)
			if err != nil {
				return nil, err
			}
			if prob != nil {
				if sheetKind(stem(p)) != "" {
					l.rep.Problems = append(l.rep.Problems, *prob)
				}
				continue
			}
			all = append(all, source{kind: sheetKind(stem(p)), t: t, label: stem(p)})
		case ext == ".jsonl" || ext == ".json" || ext == ".ndjson":
			if sheetKind(stem(p)) == SheetQA || l.opt.Sheets[SheetQA] == stem(p) {
				all = append(all, source{kind: SheetQA, json: p, label: stem(p)})
			}
		}
	}
	return l.assign(ctx, dir, all)
}

// errStop ends a row stream early without error.
var errStop = errors.New("stop")

// assign settles which source is read as which kind: Options.Sheets first,
// then names; when no name matches, a sheet is recognised by its header
// (the first with a question column is the QA set, the first with a title
// column the guides), so a workbook like MSGABench's gov_qa.xlsx loads.
func (l *loader) assign(ctx context.Context, path string, all []source) ([]source, error) {
	var out []source
	taken := map[string]string{}
	if len(l.opt.Sheets) > 0 {
		for i := range all {
			all[i].kind = ""
		}
		for _, kind := range sheetKinds {
			want, ok := l.opt.Sheets[kind]
			if !ok {
				continue
			}
			found := false
			for i := range all {
				if all[i].label == want || normalize(all[i].label) == normalize(want) {
					found = true
					if all[i].hidden {
						l.rep.Problems = append(l.rep.Problems, Problem{File: path, Sheet: want, Code: CodeHiddenSheet, Severity: SeverityError,
							EN: fmt.Sprintf("the sheet %q chosen for %s is hidden; unhide it in Excel or choose to read hidden sheets.", want, kind),
							ZH: fmt.Sprintf("为 %s 指定的工作表“%s”是隐藏的；请在 Excel 中取消隐藏，或选择读取隐藏工作表。", kind, want)})
						break
					}
					all[i].kind = kind
					break
				}
			}
			if !found {
				l.rep.Problems = append(l.rep.Problems, Problem{File: path, Sheet: want, Code: CodeMissingSheet, Severity: SeverityError,
					EN: fmt.Sprintf("the sheet %q chosen for %s does not exist.", want, kind),
					ZH: fmt.Sprintf("为 %s 指定的工作表“%s”不存在。", kind, want)})
			}
		}
	}
	several := map[string][]string{}
	for _, s := range all {
		if s.kind == "" {
			continue
		}
		// Several sheets of one kind are read together, in workbook order,
		// and named in a warning: questions split over 问答集 and
		// 问答集 (2) are all evaluated, never the first alone. Ids repeated
		// across them are errors naming both rows.
		if taken[s.kind] == "" {
			taken[s.kind] = s.label
		}
		several[s.kind] = append(several[s.kind], s.label)
		out = append(out, s)
	}
	for _, kind := range sheetKinds {
		if names := several[kind]; len(names) > 1 {
			l.severalSheets(path, kind, names)
		}
	}
	if len(out) > 0 || len(l.opt.Sheets) > 0 {
		return out, nil
	}
	for _, s := range all {
		if s.t == nil || s.hidden {
			continue
		}
		var kind string
		err := s.t.rows(ctx, func(_ int, cells []string, _ []cellIssue) error {
			kind = headerKind(cells)
			return errStop
		})
		if err != nil && !errors.Is(err, errStop) {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue // reported when (if) the sheet is read
		}
		if kind == "" || taken[kind] != "" {
			continue
		}
		taken[kind] = s.label
		s.kind = kind
		l.rep.Problems = append(l.rep.Problems, Problem{File: path, Sheet: s.t.sheet, Code: CodeSheetByHeader, Severity: SeverityWarning,
			EN: fmt.Sprintf("no sheet is named like guides, qa, scores or human; this one is read as %s because of its columns.", kind),
			ZH: fmt.Sprintf("没有按 guides、qa、scores、human（办事指南、问答集、评分、人工评分）命名的工作表；根据列名，此表按 %s 读取。", kind)})
		out = append(out, s)
	}
	return out, nil
}

// kindNames names the sheet kinds in messages.
var kindNames = map[string][2]string{
	SheetGuides: {"guide", "办事指南"}, SheetQA: {"question", "问答集"},
	SheetScores: {"score", "评分"}, SheetHuman: {"expert-rating", "人工评分"},
}

// severalSheets says which sheets of one kind are read together.
func (l *loader) severalSheets(path, kind string, names []string) {
	n := kindNames[kind]
	l.rep.Problems = append(l.rep.Problems, Problem{File: path, Code: CodeSeveralSheets, Severity: SeverityWarning,
		EN: fmt.Sprintf("read %d %s sheets together: %s.", len(names), n[0], strings.Join(names, ", ")),
		ZH: fmt.Sprintf("共读取 %d 个%s工作表并合并：%s。", len(names), n[1], strings.Join(names, "、"))})
}

// headerKind guesses a sheet kind from its header row.
func headerKind(cells []string) string {
	has := func(kind string, keys ...string) bool {
		for _, k := range keys {
			found := false
			for _, c := range cells {
				if columnKey(kind, c) == k {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	switch {
	case has(SheetQA, colQuestion):
		return SheetQA
	case has(SheetGuides, colTitle):
		return SheetGuides
	case has(SheetScores, requiredColumns[SheetScores]...):
		return SheetScores
	case has(SheetHuman, requiredColumns[SheetHuman]...):
		return SheetHuman
	}
	return ""
}

// rowReader consumes the data rows of one sheet kind.
type rowReader interface {
	row(row int, cells []string)
	finish()
}

// load reads one source into the workbook.
func (l *loader) load(ctx context.Context, s source) error {
	if s.kind == SheetQA {
		l.haveQA = true
	}
	if s.json != "" {
		return l.loadJSON(ctx, s.json)
	}
	c := &collector{rep: l.rep, skip: l.opt.SkipBadRows, file: s.t.file, sheet: s.t.sheet}
	var (
		rr       rowReader
		h        *header
		headered bool
		data     int
		errs     errorValues
	)
	colName := func(i int) string {
		if h != nil && i < len(h.names) && h.names[i] != "" {
			return h.names[i]
		}
		letter, _ := excelize.ColumnNumberToName(i + 1)
		return letter
	}
	read := s.t.full
	if read == nil {
		read = func(ctx context.Context, fn rowFunc, _ func(sheetNote)) error { return s.t.rows(ctx, fn) }
	}
	err := read(ctx, func(row int, cells []string, issues []cellIssue) error {
		if !headered {
			headered = true
			for _, is := range issues {
				c.sheetProblem(row, colName(is.col), is.code, is.severity, is.en, is.zh)
			}
			var ok bool
			h, ok = readHeader(s.kind, row, cells, c)
			if !ok {
				return errStop
			}
			rr = l.newRowReader(s.kind, c, h)
			return nil
		}
		data++
		for _, is := range issues {
			c.rowProblem(row, colName(is.col), is.code, is.severity, is.en, is.zh)
		}
		errs.clear(row, cells, colName, c)
		rr.row(row, cells)
		return l.sinkErr
	}, func(n sheetNote) {
		c.sheetProblem(n.row, "", n.code, n.severity, n.en, n.zh)
	})
	if l.sinkErr != nil {
		return l.sinkErr
	}
	var re *readError
	switch {
	case err == nil || errors.Is(err, errStop):
	case errors.As(err, &re):
		col := ""
		if re.col >= 0 {
			col = colName(re.col)
		}
		c.sheetProblem(re.row, col, re.code, SeverityError, re.en, re.zh)
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		c.sheetProblem(0, "", CodeCorrupt, SeverityError,
			fmt.Sprintf("the sheet could not be read to the end (%v); rows after the damage are missing.", err),
			fmt.Sprintf("该表无法完整读取（%v），损坏处之后的行缺失。", err))
	}
	errs.finish(c)
	if rr != nil {
		rr.finish()
	}
	if (!headered || (rr != nil && data == 0)) && err == nil {
		c.sheetProblem(0, "", CodeEmptySheet, SeverityWarning,
			"the sheet has no data rows.",
			"该表没有数据行。")
	}
	return nil
}

type qaFinishNoop struct{ *qaSheet }

func (qaFinishNoop) finish() {} // the shared builder finishes once, after every QA source

func (l *loader) newRowReader(kind string, c *collector, h *header) rowReader {
	switch kind {
	case SheetGuides:
		return newGuideReader(l, c, h)
	case SheetQA:
		b := l.qaBuilder(c)
		return qaFinishNoop{newQASheet(b, h)}
	case SheetScores:
		return newScoresSheet(l, c, h)
	default:
		return newHumanSheet(l, c, h)
	}
}

// qaBuilder returns the shared QA builder, pointing it at a new source.
func (l *loader) qaBuilder(c *collector) *qaBuilder {
	if l.qa == nil {
		l.qa = newQABuilder(l, c)
	}
	l.qa.c = c
	return l.qa
}
