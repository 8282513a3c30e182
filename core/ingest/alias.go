package ingest

import (
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// Sheet kinds of the workbook (workbook.md), also the keys of Options.Sheets.
const (
	SheetGuides = "guides"
	SheetQA     = "qa"
	SheetScores = "scores"
	SheetHuman  = "human"
)

// sheetKinds is the order sheets are read in: guides before the QA set
// (gold documents resolve against guides), the QA set before scores and
// ratings (their ids must name questions).
var sheetKinds = []string{SheetGuides, SheetQA, SheetScores, SheetHuman}

// sheetAliases names each sheet kind in English and Chinese. Matching
// ignores case, spaces and underscores; add names here.
var sheetAliases = map[string][]string{
	SheetGuides: {"guides", "guide", "knowledge base", "kb", "办事指南", "知识库", "指南"},
	SheetQA:     {"qa", "qa set", "questions", "问答集", "问答", "问题集", "测试集"},
	SheetScores: {"scores", "judgements", "judgments", "评分", "评分结果"},
	SheetHuman:  {"human", "human ratings", "expert ratings", "人工评分", "专家评分"},
}

// Canonical column names (workbook.md).
const (
	colDocID     = "doc_id"
	colTitle     = "title"
	colText      = "text"
	colTargetDoc = "target_doc"
	colID        = "id"
	colQuestion  = "question"
	colAnswer    = "answer"
	colRetrieved = "retrieved"
	colContexts  = "contexts"
	colZero      = "answer_zero"
	colFull      = "answer_full"
	colReference = "reference"
	colQueryType = "query_type"
	colCategory  = "category"
	colCoarse    = "coarse_keywords"
	colFine      = "fine_keywords"
	colSet       = "set"
	colJudge     = "judge"
	colDimension = "dimension"
	colScore     = "score"
	colRepeat    = "repeat"
	colRaw       = "raw"
	colStatus    = "status"
	colReason    = "reason"
	colRater     = "rater"
)

// columnAliases names each column of each sheet kind, canonical name first.
// One table for xlsx headers, CSV headers and JSON keys (ragas: user_input,
// response, retrieved_contexts, reference; CoFE: query, reference_answer,
// file_name, query_type, coarse_keywords, fine_keywords).
var columnAliases = map[string][][]string{
	SheetGuides: {
		{colDocID, "id", "事项编码", "编码", "事项代码", "document id"},
		{colTitle, "事项名称", "名称", "item name", "标题", "name"},
		{colText, "正文", "内容", "正文内容", "content", "document"},
		{colTargetDoc, "target document", "target doc id", "kb document", "kb file name", "知识库文档", "知识库文件名", "目标文档", "系统文档", "文件名", "文档名"},
	},
	SheetQA: {
		{colID, "编号", "qid", "question id"},
		{colQuestion, "问题", "用户问题", "query", "user_input"},
		{colDocID, "标准文档", "参考文档", "source", "file_name", "gold doc", "gold_doc_id"},
		{colAnswer, "回答", "答案", "response"},
		{colRetrieved, "检索文档", "document list", "retrieved_ids", "retrieved_docs", "retrieved_context_ids"},
		{colContexts, "检索内容", "retrieved_contexts"},
		{colZero, "零分答案"},
		{colFull, "满分答案"},
		{colReference, "参考答案", "ground_truth", "reference_answer", "知识库答案", "标准答案"},
		{colQueryType, "问题类型", "提问类型", "type"},
		{colCategory, "类别", "分类"},
		{colCoarse, "粗粒度关键词", "关键字", "关键词", "keywords"},
		{colFine, "细粒度关键词"},
	},
	SheetScores: {
		{colID, "编号", "qid", "question id"},
		{colSet, "答案集", "系统", "system"},
		{colJudge, "评委", "裁判", "judge model", "model"},
		{colDimension, "维度", "dim"},
		{colScore, "分数", "得分", "评分"},
		{colRepeat, "重复", "次数", "repetition"},
		{colRaw, "原始回复", "reply"},
		{colStatus, "状态"},
		{colReason, "原因"},
	},
	SheetHuman: {
		{colID, "编号", "qid", "question id"},
		{colDimension, "维度", "dim"},
		{colScore, "分数", "得分", "评分"},
		{colRater, "评分人", "专家", "expert"},
	},
}

// requiredColumns lists the columns a sheet cannot be read without.
var requiredColumns = map[string][]string{
	SheetGuides: {colTitle},
	SheetQA:     {colQuestion},
	SheetScores: {colID, colSet, colDimension, colScore},
	SheetHuman:  {colID, colDimension, colScore},
}

// answerPrefixes introduce `answer:NAME` columns of further systems.
var answerPrefixes = []string{"answer", "回答", "答案"}

var (
	sheetLookup  = map[string]string{}            // normalized name → kind
	columnLookup = map[string]map[string]string{} // kind → normalized header → canonical
)

func init() {
	for kind, names := range sheetAliases {
		for _, n := range names {
			sheetLookup[normalize(n)] = kind
		}
	}
	for kind, cols := range columnAliases {
		m := map[string]string{}
		for _, names := range cols {
			for _, n := range names {
				m[normalize(n)] = names[0]
			}
		}
		columnLookup[kind] = m
	}
}

// normalize folds a sheet or column name for matching: full-width forms to
// half-width (ＩＤ, ＿), lower case, without spaces (ASCII or full-width)
// and underscores.
func normalize(s string) string {
	s = width.Fold.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == '_' || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// stripNotes removes bracketed notes from a header: 标准文档（事项编码） and
// 检索文档(按排名) are 标准文档 and 检索文档. Notes are written in (), （）,
// 【】, [] or 〔〕; a header that is nothing but a note is kept.
func stripNotes(s string) string {
	out := s
	for _, pair := range brackets {
		for {
			i := strings.Index(out, pair[0])
			if i < 0 {
				break
			}
			j := strings.Index(out[i:], pair[1])
			if j < 0 {
				break
			}
			out = out[:i] + out[i+j+len(pair[1]):]
		}
	}
	if strings.TrimSpace(out) == "" {
		return s
	}
	return out
}

// sheetKind returns the kind a sheet or file name stands for, "" if none.
// A name with a number or a bracketed note after a known one is of that
// kind too: `问答集 (2)`, `问答集（第二批）`, `qa_2`, `scores (2)` (long sheets
// go on over further sheets past Excel's 1,048,576-row limit; officers split
// questions over sheets by batch).
func sheetKind(name string) string {
	if kind := sheetLookup[normalize(name)]; kind != "" {
		return kind
	}
	if base, ok := continuationOf(name); ok {
		return sheetLookup[normalize(base)]
	}
	return ""
}

// brackets are the pairs a sheet name's or header's note is written in.
var brackets = [][2]string{{"(", ")"}, {"（", "）"}, {"【", "】"}, {"[", "]"}, {"〔", "〕"}}

// continuationOf recognises a name that goes on from another: "scores (2)",
// "问答集（第二批）", "qa_2", "问答集2", and returns the name before the note.
func continuationOf(name string) (string, bool) {
	name = strings.TrimSpace(name)
	for _, pair := range brackets {
		if !strings.HasSuffix(name, pair[1]) {
			continue
		}
		i := strings.LastIndex(name, pair[0])
		if i <= 0 || i+len(pair[0]) == len(name)-len(pair[1]) {
			continue
		}
		return strings.TrimSpace(name[:i]), true
	}
	base := strings.TrimRight(name, "0123456789")
	if base == name || base == "" {
		return "", false
	}
	base = strings.TrimRight(base, " _-－—")
	return base, base != ""
}

// columnKey returns the canonical column a header names in a sheet kind,
// as written or without its bracketed notes.
func columnKey(kind, header string) string {
	if key := columnLookup[kind][normalize(header)]; key != "" {
		return key
	}
	return columnLookup[kind][normalize(stripNotes(header))]
}

// likelyColumn names the known column an unread header looks like (a few
// characters apart: 检索结果 or 召回文档 for 检索文档), among the columns
// the sheet does not have; "" when none is close.
func likelyColumn(kind, header string, have map[string]int) (alias, key string) {
	h := []rune(normalize(stripNotes(header)))
	if len(h) < 2 {
		return "", ""
	}
	best := -1
	for _, names := range columnAliases[kind] {
		if _, ok := have[names[0]]; ok || !verdictColumns[names[0]] {
			continue
		}
		for _, n := range names {
			a := []rune(normalize(n))
			d := editDistance(h, a)
			if d == 0 || 2*d > min(len(h), len(a)) || best >= 0 && d >= best {
				continue
			}
			best, alias, key = d, n, names[0]
		}
	}
	return alias, key
}

// verdictColumns are the columns whose absence changes what is measured, so
// a header close to one of them is worth a warning; a header close to a
// free note column (类别, 检索内容) is not.
var verdictColumns = map[string]bool{
	colID: true, colQuestion: true, colDocID: true, colAnswer: true, colRetrieved: true, colReference: true,
	colSet: true, colJudge: true, colDimension: true, colScore: true, colStatus: true,
}

// editDistance is Levenshtein's distance between two rune strings.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// answerSystem returns NAME for an `answer:NAME` (or `回答：NAME`) header.
func answerSystem(header string) (string, bool) {
	i := strings.IndexAny(header, ":：")
	if i < 0 {
		return "", false
	}
	prefix := normalize(header[:i])
	_, size := firstRune(header[i:])
	name := strings.TrimSpace(header[i+size:])
	if name == "" {
		return "", false
	}
	for _, p := range answerPrefixes {
		if prefix == p {
			return canonicalSet(name), true
		}
	}
	return "", false
}

// aliasList renders a column's accepted names for a missing-column message.
func aliasList(kind, canonical string) string {
	for _, names := range columnAliases[kind] {
		if names[0] == canonical {
			return strings.Join(names, ", ")
		}
	}
	return canonical
}

func firstRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 0
}
