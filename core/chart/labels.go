package chart

import (
	"fmt"
	"strings"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/querytype"
	"cubeworkbench/core/text"
)

// Languages of Options.Lang.
const (
	LangZH = "zh"
	LangEN = "en"
)

// bi is one text in both languages.
type bi struct{ zh, en string }

// labels maps the keys charts are given (dimension, set, factor, query type
// and metric names as the rest of the product spells them) and the charts' own
// captions to display text. A key missing here is shown as given, so a custom
// dimension or a judge's name passes through unchanged. Built-in dimensions
// and query types are named by their registries (core/dimension,
// core/querytype).
var labels = map[string]bi{
	// Answer sets.
	"zero": {"零上下文回答（下界）", "no-context answers (lower bound)"},
	"rag":  {"被测系统回答", "system answers"},
	"full": {"标准指南回答（上界）", "gold-guide answers (upper bound)"},
	// Their short names, for a legend half a page wide.
	"zero.short": {"零上下文回答", "no context"},
	"rag.short":  {"被测系统回答", "system"},
	"full.short": {"标准指南回答", "gold guide"},
	// MFSS factors (formulas.md §2).
	"accuracy":    {"准确性", "Accuracy"},
	"factual":     {"事实一致性", "Factual consistency"},
	"conciseness": {"简洁性", "Conciseness"},
	"readability": {"可读性", "Readability"},
	"coherence":   {"连贯性", "Coherence"},
	"rouge":       {"ROUGE", "ROUGE"},
	"total":       {"总分", "Total"},
	// CoFE metrics (formulas.md §3); the query types are core/querytype's.
	"accuracy@k": {"关键词准确率@k", "Keyword accuracy@k"},
	"recall":     {"关键词召回率", "Keyword recall"},
	"coverage":   {"关键词覆盖率", "Keyword coverage"},
	"hit":        {"平均命中分", "Mean hit score"},
	"bm25":       {"BM25", "BM25"},
	"dense":      {"稠密检索", "Dense"},
	"hybrid":     {"混合检索 (RRF)", "Hybrid (RRF)"},
	// Captions.
	"n/a":            {"不适用", "n/a"},
	"score":          {"评分", "Score"},
	"count":          {"频数", "Count"},
	"hist.title":     {"评分分布", "Score distribution"},
	"heat.title":     {"排名得分与评分的相关系数", "Correlation of rank score and judge score"},
	"bounds.title":   {"三组答案的截尾均值", "Trimmed means of the three answer sets"},
	"bounds.y":       {"截尾均值（0–10）", "Trimmed mean (0–10)"},
	"bounds.y.short": {"截尾均值", "Trimmed mean"},
	"cube.title":     {"各评审模型的 CuBE 得分（95 % 置信区间）", "CuBE score per judge (95 % interval)"},
	"cube.y":         {"CuBE 得分", "CuBE score"},
	"cube.mean":      {"评审模型均值", "Mean of judges"},
	"cube.band":      {"均值的 95 % 置信区间", "95 % interval of the mean"},
	"judge":          {"评审模型", "Judge"},
	"radar.title":    {"MFSS 六因子得分", "MFSS factor scores"},
	"qtype.title":    {"按问题类型的检索指标", "Retrieval metrics by query type"},
	"qtype.y":        {"比例", "Share"},
	"sweep.title":    {"分块大小对检索的影响", "Retrieval versus chunk size"},
	"sweep.x":        {"分块大小（词元）", "Chunk size (tokens)"},
	"mean":           {"均值", "mean"},
}

// label returns the display text of key in lang ("en", else Chinese).
func label(lang, key string) string {
	b, ok := labels[key]
	if !ok {
		b, ok = labels[strings.ToLower(key)]
	}
	if d, isDim := dimension.Lookup(strings.ToLower(key)); !ok && isDim && d.Method == dimension.CuBE {
		b, ok = bi{d.TitleZH, d.TitleEN}, true
	}
	if !ok {
		return key
	}
	if lang == LangEN {
		return b.en
	}
	return b.zh
}

// queryTypeLabel shows a canonical query type; "factual" is both an MFSS
// factor and a query type, so query types ask their own registry first.
func queryTypeLabel(lang, key string) string {
	if t, ok := querytype.Lookup(key); ok {
		return t.Title(lang)
	}
	return label(lang, key)
}

// judgeName is a judge's name as drawn: the glossary's for the offline
// judges (词汇基线评审, not lexical), the user's own otherwise.
func judgeName(lang, name string) string { return glossary.JudgeName(name, text.Lang(lang)) }

// na is the text drawn where a value is undefined.
func na(lang string) string { return label(lang, "n/a") }

// num formats a defined value with prec decimals, or "n/a".
func num(lang string, v *float64, prec int) string {
	if v == nil {
		return na(lang)
	}
	return fmt.Sprintf("%.*f", prec, *v)
}
