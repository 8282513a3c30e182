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
	LangZH = text.ZH
	LangEN = text.EN
)

// labels maps the keys charts are given (dimension, set, factor, query type
// and metric names as the rest of the product spells them) and the charts' own
// captions to display text. A key missing here is shown as given, so a custom
// dimension or a judge's name passes through unchanged. Built-in dimensions
// and query types are named by their registries (core/dimension,
// core/querytype).
var labels = map[string]text.Text{
	// Answer sets.
	"zero": text.New("零上下文回答（下界）", "no-context answers (lower bound)"),
	"rag":  text.New("被测系统回答", "system answers"),
	"full": text.New("标准指南回答（上界）", "gold-guide answers (upper bound)"),
	// Their short names, for a legend half a page wide.
	"zero.short": text.New("零上下文回答", "no context"),
	"rag.short":  text.New("被测系统回答", "system"),
	"full.short": text.New("标准指南回答", "gold guide"),
	// MFSS factors (formulas.md §2).
	"accuracy":    text.New("准确性", "Accuracy"),
	"factual":     text.New("事实一致性", "Factual consistency"),
	"conciseness": text.New("简洁性", "Conciseness"),
	"readability": text.New("可读性", "Readability"),
	"coherence":   text.New("连贯性", "Coherence"),
	"rouge":       text.New("ROUGE", "ROUGE"),
	"total":       text.New("总分", "Total"),
	// CoFE metrics (formulas.md §3); the query types are core/querytype's.
	"accuracy@k": text.New("关键词准确率@k", "Keyword accuracy@k"),
	"recall":     text.New("关键词召回率", "Keyword recall"),
	"coverage":   text.New("关键词覆盖率", "Keyword coverage"),
	"hit":        text.New("平均命中分", "Mean hit score"),
	"bm25":       text.New("BM25", "BM25"),
	"dense":      text.New("稠密检索", "Dense"),
	"hybrid":     text.New("混合检索 (RRF)", "Hybrid (RRF)"),
	// Captions.
	"n/a":            text.New("不适用", "n/a"),
	"score":          text.New("评分", "Score"),
	"count":          text.New("频数", "Count"),
	"hist.title":     text.New("评分分布", "Score distribution"),
	"heat.title":     text.New("排名得分与评分的相关系数", "Correlation of rank score and judge score"),
	"bounds.title":   text.New("三组答案的截尾均值", "Trimmed means of the three answer sets"),
	"bounds.y":       text.New("截尾均值（0–10）", "Trimmed mean (0–10)"),
	"bounds.y.short": text.New("截尾均值", "Trimmed mean"),
	"cube.title":     text.New("各评审模型的 CuBE 得分（95 % 置信区间）", "CuBE score per judge (95 % interval)"),
	"cube.y":         text.New("CuBE 得分", "CuBE score"),
	"cube.mean":      text.New("评审模型均值", "Mean of judges"),
	"cube.band":      text.New("均值的 95 % 置信区间", "95 % interval of the mean"),
	"judge":          text.New("评审模型", "Judge"),
	"radar.title":    text.New("MFSS 六因子得分", "MFSS factor scores"),
	"qtype.title":    text.New("按问题类型的检索指标", "Retrieval metrics by query type"),
	"qtype.y":        text.New("比例", "Share"),
	"sweep.title":    text.New("分块大小对检索的影响", "Retrieval versus chunk size"),
	"sweep.x":        text.New("分块大小（词元）", "Chunk size (tokens)"),
	"mean":           text.New("均值", "mean"),
}

// label returns the display text of key in lang ("en", else Chinese).
func label(lang text.Lang, key string) string {
	b, ok := labels[key]
	if !ok {
		b, ok = labels[strings.ToLower(key)]
	}
	if d, isDim := dimension.Lookup(strings.ToLower(key)); !ok && isDim && d.Method == dimension.CuBE {
		b, ok = text.New(d.TitleZH, d.TitleEN), true
	}
	if !ok {
		return key
	}
	return b.In(drawn(lang))
}

// drawn is the language a label is drawn in: English for LangEN, Chinese
// otherwise (the charts' default).
func drawn(lang text.Lang) text.Lang {
	if lang == LangEN {
		return LangEN
	}
	return LangZH
}

// queryTypeLabel shows a canonical query type; "factual" is both an MFSS
// factor and a query type, so query types ask their own registry first.
func queryTypeLabel(lang text.Lang, key string) string {
	if t, ok := querytype.Lookup(key); ok {
		return t.Title(lang)
	}
	return label(lang, key)
}

// judgeName is a judge's name as drawn: the glossary's for the offline
// judges (词汇基线评审, not lexical), the user's own otherwise.
func judgeName(lang text.Lang, name string) string { return glossary.JudgeName(name, lang) }

// na is the text drawn where a value is undefined.
func na(lang text.Lang) string { return label(lang, "n/a") }

// num formats a defined value with prec decimals, or "n/a".
func num(lang text.Lang, v *float64, prec int) string {
	if v == nil {
		return na(lang)
	}
	return fmt.Sprintf("%.*f", prec, *v)
}
