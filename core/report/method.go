package report

import (
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"cubeworkbench/core/mfss"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
	"cubeworkbench/prompts"
)

func (w *writer) methodSheet() error {
	g := w.grid(SheetMethod)
	g.widths(30, 22, 28, 28, 10, 60)
	g.line(styled{w.t("How this evaluation was made", "评估方法"), w.st.title})
	g.skip(1)

	w.methodProfile(g)
	w.methodMeanings(g)
	w.methodJudges(g)
	w.methodDimensions(g)
	w.methodRun(g)
	w.methodFindings(g)
	w.methodAdviceLeft(g)
	w.methodNotes(g)
	return g.first
}

// methodProfile writes the evaluation profile's settings.
func (w *writer) methodProfile(g *grid) {
	p := w.in.Profile
	g.block()
	g.line(styled{w.t("Evaluation profile", "评估配置"), w.st.label})
	mode, table, _ := p.WeightMode()
	weights := mode
	if len(table) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(table)) {
			parts = append(parts, fmt.Sprintf("%s = %g", k, table[k]))
		}
		weights += " (" + strings.Join(parts, ", ") + ")"
	}
	kv := [][2]any{
		{w.t("Report language", "报告语言"), w.lang},
		{"TOP-N", p.TopN},
		{w.t("Trim proportion α", "截尾比例 α"), p.Trim},
		{w.t("Analysis subset", "分析子集"), p.Subset},
		{w.t("Weights", "权重"), weights},
		{w.t("Dimensions", "维度"), strings.Join(p.Dimensions, ", ")},
		{w.t("Resamples behind the 95 % intervals", "95 % 置信区间的重抽样次数"), p.Bootstrap},
		{w.t("Seed", "随机种子"), int(p.Seed)},
		{w.t("Deployable at CuBE ≥", "可部署阈值 CuBE ≥"), p.Thresholds.Deployable},
		{w.t("Needs work at CuBE ≥", "需改进阈值 CuBE ≥"), p.Thresholds.NeedsWork},
		{w.t("Recall@k advice below", "召回率建议阈值"), pct{&p.Thresholds.RecallLow}},
		{w.t("Weak dimension below", "薄弱维度阈值"), p.Thresholds.DimensionWeak},
		{w.t("Judge disagreement above (SD)", "评审分歧阈值（标准差）"), p.Thresholds.JudgeSDHigh},
		{w.t("Own-knowledge score at ≥", "自有知识得分阈值 ≥"), p.Thresholds.ZeroHighScore},
		{w.t("Fewest questions for a verdict", "作出结论所需的最少问题数"), p.Thresholds.MinQuestions},
		{w.t("CoFE-RAG", "CoFE-RAG 设置"), fmt.Sprintf("k = %d, recall_n = %d, %s %d/%d, %s", p.CoFE.K, p.CoFE.RecallN, p.CoFE.Chunker, p.CoFE.ChunkSize, p.CoFE.Overlap, p.CoFE.Retriever)},
	}
	if len(p.MFSS.Weights) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(p.MFSS.Weights)) {
			parts = append(parts, fmt.Sprintf("%s = %g", k, p.MFSS.Weights[k]))
		}
		kv = append(kv, [2]any{w.t("MFSS weights", "MFSS 权重"), strings.Join(parts, ", ")})
	}
	if p.BudgetUSD > 0 {
		kv = append(kv, [2]any{w.t("Budget (USD)", "预算（美元）"), p.BudgetUSD})
	}
	if p.PromptDir != "" {
		kv = append(kv, [2]any{w.t("Edited prompts from", "自定义提示词目录"), filepath.Base(p.PromptDir)})
	}
	for _, x := range kv {
		g.line(styled{x[0], w.st.label}, x[1])
	}
	g.skip(1)
}

// methodMeanings writes what the Summary's key numbers mean.
func (w *writer) methodMeanings(g *grid) {
	// Judges: name, model and host only — never a key or its variable.
	// What the Summary's key numbers mean, in the words the page leaves
	// out for room.
	g.block()
	g.line(styled{w.t("What the numbers on the Summary mean", "摘要页各项数字的含义"), w.st.label})
	g.header(w.t("Number", "数字"), w.t("What it means", "含义"))
	g.wrap = true
	for _, fig := range w.page().Figures {
		row := g.line(fig.Label, fig.Meaning)
		g.err(w.f.MergeCell(g.name, fmt.Sprintf("B%d", row), fmt.Sprintf("F%d", row)))
		g.height(row, max(rowHeight(fig.Label, 30), rowHeight(fig.Meaning, 150)))
	}
	g.wrap = false
	g.skip(1)
}

// methodJudges writes the judges, the generator, the embedder and the system under test: name, model and host only — never a key or its variable.
func (w *writer) methodJudges(g *grid) {
	p := w.in.Profile
	g.block()
	g.line(styled{w.t("Judges", "评审模型"), w.st.label})
	g.header(w.t("Name", "名称"), w.t("Kind", "类型"), w.t("Model", "模型"), w.t("Endpoint host", "服务地址（主机）"), w.t("Repeats", "重复次数"), w.t("Note", "说明"))
	for _, j := range w.judgeInfos() {
		note := ""
		switch j.Kind {
		case "lexical":
			note = w.t("Lexical baseline: word overlap with the gold document, not an LLM; a floor to compare the LLM judges with.",
				"词汇基线：与标准文档的词语重合度，不是大语言模型；用作与大模型评审对照的下限。")
		case "semantic":
			note = w.t("Semantic baseline: similarity of offline hashed embeddings with the question and the gold document, sentence by sentence, not an LLM; a second floor to compare the judges with.",
				"语义基线：与问题、标准文档逐句比较离线哈希向量的相似度，不是大语言模型；用作评审对照的第二个下限。")
		case "imported":
			note = w.t("Scores imported from the workbook's scores sheet.", "分数取自工作簿的 scores 表。")
		}
		g.wrap = true
		g.line(w.judgeName(j.Name), w.kindName(j.Kind), j.Model, j.Host, j.Repeats, note)
		g.wrap = false
	}
	for _, e := range []struct {
		label string
		ep    *profile.Endpoint
	}{{w.t("Answer generator (zero/full sets)", "答案生成模型（zero/full 集）"), p.Generator}, {w.t("Embedder", "向量模型"), p.Embedder}} {
		if e.ep != nil {
			g.line(styled{e.label, w.st.label}, "", e.ep.Model, host(e.ep.BaseURL, e.ep.BaseURLs))
		}
	}
	if p.Target != nil {
		g.line(styled{w.t("System under test", "被测系统"), w.st.label}, p.Target.Kind, p.Target.Model, host(p.Target.BaseURL, nil))
	}
	g.skip(1)
}

// methodDimensions writes the dimensions and the prompts that judged them.
func (w *writer) methodDimensions(g *grid) {
	p := w.in.Profile
	g.block()
	g.line(styled{w.t("Dimensions", "评分维度"), w.st.label})
	g.header(w.t("Dimension", "维度"), w.t("Title", "名称"), w.t("Prompt", "提示词"), w.t("What the judge is asked", "评分要点"))
	source := w.t("built-in ", "内置 ")
	if p.PromptDir != "" {
		source = w.t("edited copy in ", "自定义副本：") + filepath.Base(p.PromptDir) + " / "
	}
	for _, d := range w.dimsOrProfile() {
		title, line := w.promptInfo(p.PromptDir, d)
		g.wrap = true
		row := g.line(d, title, source+"prompts/cube/"+prompts.File(d, w.lang), line)
		g.wrap = false
		g.err(w.f.MergeCell(g.name, fmt.Sprintf("D%d", row), fmt.Sprintf("F%d", row)))
		g.err(w.f.SetRowHeight(g.name, row, rowHeight(line, 110)))
	}
	g.skip(1)
}

// methodRun writes the run record.
func (w *writer) methodRun(g *grid) {
	s := w.s
	g.block()
	g.line(styled{w.t("Run", "运行记录"), w.st.label})
	r := s.Run
	runKV := [][2]any{
		{w.t("Tool version", "工具版本"), s.ToolVersion},
		{w.t("Run id", "运行编号"), int(r.ID)},
		{w.t("Started", "开始时间"), timeText(r.Started)},
		{w.t("Finished", "结束时间"), timeText(r.Finished)},
		{w.t("Model calls", "模型调用次数"), r.Calls},
		{w.t("HTTP requests the endpoints saw (retries included)", "服务端收到的 HTTP 请求（含重试）"), r.Attempts},
		{w.t("Replies of any status", "收到的回复（任何状态）"), r.Replies},
		{w.t("Throttled (HTTP 429)", "被限流（HTTP 429）"), r.Throttled},
		{w.t("Answered from the cache", "缓存命中"), r.Cached},
		{w.t("Failed calls", "失败调用"), r.Failed},
		{w.t("Unscorable replies", "无法评分的回复"), r.Unscorable},
		{w.t("Tokens", "令牌数"), r.Tokens},
		{w.t("Money spent", "费用"), w.spent(r)},
		{w.t("Embedder", "向量模型"), r.Embedder},
		{w.t("Offline run", "离线运行"), w.t(yesNo(r.Offline))},
	}
	if r.Workbook != "" {
		runKV = append(runKV, [2]any{w.t("Workbook", "数据文件"), filepath.Base(r.Workbook)})
		if fp := r.WorkbookFile; fp != nil {
			runKV = append(runKV,
				[2]any{w.t("Workbook SHA-256 (as read)", "数据文件 SHA-256（读取时）"), fp.SHA256},
				[2]any{w.t("Workbook size (bytes)", "数据文件大小（字节）"), int(fp.Bytes)},
				[2]any{w.t("Workbook modified (UTC)", "数据文件修改时间（UTC）"), fp.Modified.UTC().Format("2006-01-02 15:04:05")})
		}
	}
	if r.Store != "" {
		runKV = append(runKV, [2]any{w.t("Run store", "运行记录库"), filepath.Base(r.Store)})
	}
	for _, x := range runKV {
		g.line(styled{x[0], w.st.label}, x[1])
	}
	g.skip(1)
}

// methodFindings writes what the endpoints refused, how retrieved documents were matched and what MFSS could not tell apart.
func (w *writer) methodFindings(g *grid) {
	s := w.s
	r := s.Run
	g.block()
	if len(r.Adaptations) > 0 {
		g.block()
		g.line(styled{w.t("Request parameters an endpoint refused, and how the requests changed", "服务端拒绝的请求参数，以及请求随之作的调整"), w.st.label})
		g.header(w.t("Endpoint", "服务地址"), w.t("Parameter", "参数"), w.t("What changed", "调整"))
		g.wrap = true
		for _, a := range r.Adaptations {
			row := g.line(host(a.Endpoint, nil), a.Param, w.t(a.EN, a.ZH))
			g.err(w.f.MergeCell(g.name, fmt.Sprintf("C%d", row), fmt.Sprintf("F%d", row)))
			g.height(row, rowHeight(w.t(a.EN, a.ZH), 130))
		}
		g.wrap = false
		g.skip(1)
	}
	if dm := s.DocMapping; dm != nil {
		if msgs := dm.Messages(w.lang, 20); len(msgs) > 0 {
			g.block()
			g.line(styled{w.t("How the retrieved documents were matched to the guides", "检索到的文档与办事指南的对应情况"), w.st.label})
			w.noteLines(g, msgs)
			g.skip(1)
		}
	}
	if m := s.MFSS; m != nil {
		g.block()
		g.line(styled{w.t("MFSS factors: what each measures, can tell and cannot tell", "MFSS 各因子：衡量什么、能说明什么、不能说明什么"), w.st.label})
		g.header(w.t("Factor", "因子"), w.t("Measures", "衡量"), w.t("Can tell", "能说明"), w.t("Cannot tell", "不能说明"))
		g.wrap = true
		for _, n := range mfss.FactorNotes(w.lang) {
			row := g.line(n.Name, n.Measures, n.Can, n.Cannot)
			g.err(w.f.MergeCell(g.name, fmt.Sprintf("D%d", row), fmt.Sprintf("F%d", row)))
			g.height(row, max(rowHeight(n.Measures, 40), rowHeight(n.Can, 50), rowHeight(n.Cannot, 120)))
		}
		g.wrap = false
		var lines []string
		for _, u := range m.Uninformative {
			lines = append(lines, u.Reason.In(text.Lang(w.lang)))
		}
		if zv := m.ZeroVectors.Message(); zv.EN != "" {
			lines = append(lines, zv.In(text.Lang(w.lang)))
		}
		if len(lines) > 0 {
			g.line(styled{w.t("What MFSS could not tell apart in this run", "本次运行中 MFSS 无法区分的内容"), w.st.label})
			w.noteLines(g, lines)
		}
		g.skip(1)
	}
}

// methodAdviceLeft writes the recommendations the Summary had no room for.
func (w *writer) methodAdviceLeft(g *grid) {
	if left := w.summaryAdviceLeft; len(left) > 0 {
		g.block()
		g.line(styled{w.t("Recommendations the Summary had no room for", "摘要页放不下的建议"), w.st.label})
		g.header(w.t("Priority", "优先级"), w.t("Recommendation", "建议"))
		g.wrap = true
		for _, a := range left {
			row := g.line(a.Priority, a.Text)
			g.err(w.f.MergeCell(g.name, fmt.Sprintf("B%d", row), fmt.Sprintf("F%d", row)))
			g.height(row, rowHeight(a.Text, 150))
		}
		g.wrap = false
		g.skip(1)
	}
}

// methodNotes writes the method notes.
func (w *writer) methodNotes(g *grid) {
	s := w.s
	g.block()
	g.line(styled{w.t("Method notes", "方法说明"), w.st.label})
	var notes []string
	if s.Result != nil {
		notes = s.MethodNotes(text.Lang(w.lang))
	}
	notes = append(notes,
		w.t("The lexical judge is a baseline that is not an LLM: it scores word overlap with the gold document, so it shows what an LLM judge adds.",
			"词汇基线评审是基线而非大语言模型：按与标准文档的词语重合度打分，用来衡量大模型评审带来的增益。"),
		w.t("BLEU and ROUGE-L on the Items sheet compare each answer with the gold document (the CuBE paper's Table 6 baselines), not with a reference answer.",
			"逐题表中的 BLEU 与 ROUGE-L 以标准文档为参照（CuBE 论文表 6 的基线），而非参考答案。"),
		w.t("Text longer than Excel's 32,767-character cell limit is cut with a visible marker; the full text stays in the run store. Text that starts like a formula is stored as text.",
			"超过 Excel 单元格 32,767 字符上限的文本会被截断并标注；全文保存在运行记录中。以公式符号开头的文本一律按文本保存。"),
		w.t("The sheets guides, qa, scores and human (grey tabs, at the end) are this report's data in the workbook format: open the report with cubectl evaluate to recompute every figure without calling any model again. They stay in this file, visible, because a second file could be lost or mismatched and a hidden sheet is left unread when the report is opened again; instead each prints its header row only (its print area), so printing the whole workbook adds one short page per data sheet, not hundreds.",
			"guides、qa、scores、human 四张表（灰色标签，位于最后）是本报告的数据（工作簿格式）：用 cubectl evaluate 打开本报告即可重算全部数字，无需再次调用模型。它们保留在本文件中且不隐藏：单独的数据文件可能丢失或对不上，隐藏的工作表在重新打开时不会被读取；因此每张数据表的打印区域只有表头一行，打印整个工作簿时每张数据表只多一页短页，而不是几百页。"),
	)
	g.wrap = true
	for i, n := range notes {
		row := g.line(i+1, n)
		g.err(w.f.MergeCell(g.name, fmt.Sprintf("B%d", row), fmt.Sprintf("F%d", row)))
		g.err(w.f.SetRowHeight(g.name, row, rowHeight(n, 150)))
	}
	g.wrap = false
}

// noteLines writes one wrapped note per row, merged across the sheet.
func (w *writer) noteLines(g *grid, lines []string) {
	g.wrap = true
	for _, l := range lines {
		row := g.line(l)
		g.err(w.f.MergeCell(g.name, fmt.Sprintf("A%d", row), fmt.Sprintf("F%d", row)))
		g.height(row, rowHeight(l, 170))
	}
	g.wrap = false
}

// promptInfo reads a dimension's title and one-line definition from its
// rubric prompt (front matter title_zh/title_en, the "Dimension:" line);
// without a prompt the built-in title table is used.
func (w *writer) promptInfo(dir, dim string) (title, line string) {
	title = w.dimTitle(dim)
	text, err := prompts.Load(dir, "cube/"+dim, w.lang)
	if err != nil {
		return title, ""
	}
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "title_"+w.lang+":"):
			if t := strings.TrimSpace(strings.TrimPrefix(l, "title_"+w.lang+":")); t != "" {
				title = t
			}
		case line == "" && (strings.HasPrefix(l, "评价维度：") || strings.HasPrefix(l, "Dimension:")):
			line = l
		}
	}
	return title, line
}

// judgeInfos are the judges as the run recorded them (the engine's
// RunInfo.Judges), with hosts, never URLs.
func (w *writer) judgeInfos() []result.JudgeInfo {
	out := slices.Clone(w.s.Run.Judges)
	for i := range out {
		out[i].Host = host(out[i].Host, nil) // a host, even if a URL was recorded
	}
	return out
}

func (w *writer) kindName(k string) string {
	switch k {
	case "llm":
		return w.t("LLM", "大语言模型")
	case "lexical":
		return w.t("lexical baseline", "词汇基线")
	case "semantic":
		return w.t("semantic baseline", "语义基线")
	case "imported":
		return w.t("imported", "导入")
	}
	return k
}

func (w *writer) dimsOrProfile() []string {
	if len(w.dims) > 0 {
		return w.dims
	}
	return w.in.Profile.Dimensions
}

// host reduces an endpoint address to its host (and port): paths, query
// strings and user information — where a key could hide — are dropped.
func host(base string, more []string) string {
	var hosts []string
	for _, b := range append([]string{base}, more...) {
		if b == "" {
			continue
		}
		h := b
		if u, err := url.Parse(b); err == nil && u.Host != "" {
			h = u.Host
		} else if u, err := url.Parse("//" + b); err == nil && u.Host != "" {
			h = u.Host
		} else {
			h = "?"
		}
		if !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	return strings.Join(hosts, ", ")
}

func yesNo(b bool) (string, string) {
	if b {
		return "yes", "是"
	}
	return "no", "否"
}

// spent is what the run's calls cost, each currency apart, unknown for an
// endpoint without a price (never 0); a run without paid calls says none.
func (w *writer) spent(r result.RunInfo) string {
	if m := r.Spent(text.Lang(w.lang)); m != "" {
		return m
	}
	return w.t("none (no paid call)", "无（没有付费调用）")
}
