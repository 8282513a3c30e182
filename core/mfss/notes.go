package mfss

import bilingual "cubeworkbench/core/text"

// Note says what one factor measures, what it can tell and what it cannot,
// with the measurements behind it (docs/decisions.md, MFSS): text for the
// report's Method sheet and the window's MFSS panel.
type Note struct {
	Factor   string `json:"factor"` // a FactorNames key, or "total"
	Name     string `json:"name"`
	Measures string `json:"measures"`
	Can      string `json:"can"`
	Cannot   string `json:"cannot"`
}

type noteText struct {
	factor                string
	measures, can, cannot bilingual.Text
}

// The AUC figures are TruthfulQA's (790 questions; every correct answer
// against every incorrect one of its question, scored against Best Answer,
// offline embedder; "without copies" drops correct answers that are the
// reference itself), from TestTruthfulQAAUC after the issue-18 splitter.
// The sample figures are assets/sample's, from TestSampleFactors.
var notes = []noteText{
	{"accuracy",
		bilingual.Text{EN: "Cosine of the embeddings of the answer and the reference.",
			ZH: "回答与参考答案向量的余弦相似度。"},
		bilingual.Text{EN: "How close the whole answer is to the reference. On TruthfulQA it ranks correct above incorrect answers with AUC 0.672, the best single factor.",
			ZH: "回答整体与参考答案有多接近。在 TruthfulQA 上它把正确回答排在错误回答之前的 AUC 为 0.672，是单项最好的因子。"},
		bilingual.Text{EN: "Whether a claim is true: once copies of the reference are removed the AUC falls to 0.551, since a wrong answer phrased like the reference scores high. With the offline embedder it compares characters, not meaning; scores from different embedders are not comparable.",
			ZH: "说法是否属实：去掉与参考答案相同的回答后 AUC 降到 0.551，措辞像参考答案的错误回答同样得高分。离线向量模型比较的是字符而非语义；不同向量模型的分数不可比较。"}},
	{"factual_consistency",
		bilingual.Text{EN: "Share of the reference's content words (stopwords removed) that the answer contains.",
			ZH: "参考答案的实词（去停用词）在回答中出现的比例。"},
		bilingual.Text{EN: "Facts of the reference the answer leaves out: a missing material, time limit or fee lowers it.",
			ZH: "回答遗漏了参考答案中的哪些内容：少一项材料、时限或收费都会扣分。"},
		bilingual.Text{EN: "Wrong additions or a negation (\"not required\" has the same words as \"required\"). TruthfulQA AUC 0.644 as listed, 0.522 without copies of the reference.",
			ZH: "回答多出的错误内容或否定（“不需要”与“需要”用字相同）。TruthfulQA 上 AUC 为 0.644，去掉参考答案副本后为 0.522。"}},
	{"readability",
		bilingual.Text{EN: "Half closeness of the mean sentence length to 17.5 (English) or 25 (Chinese) tokens, half share of distinct tokens.",
			ZH: "一半看平均句长与 17.5（英文）或 25（中文）个词元的接近程度，一半看不重复词元的比例。"},
		bilingual.Text{EN: "Form: sentences far too long or too short, and words repeated over and over.",
			ZH: "形式：句子过长或过短、用词反复重复。"},
		bilingual.Text{EN: "Anything about correctness (TruthfulQA AUC 0.582 as listed, 0.563 without copies). A list of materials joined by ； is one sentence, so list answers read as long sentences and score lower.",
			ZH: "任何与正确性有关的内容（TruthfulQA 上 AUC 为 0.582，去掉参考答案副本后为 0.563）。以“；”连接的材料清单算作一句，列举型回答因此句子偏长、得分偏低。"}},
	{"coherence",
		bilingual.Text{EN: "Mean cosine of the embeddings of adjacent sentences; 1 for a one-sentence answer by definition.",
			ZH: "相邻句子向量余弦的平均值；只有一句的回答按定义得 1。"},
		bilingual.Text{EN: "With an embedder that captures meaning, an abrupt change of topic between sentences of a multi-sentence answer.",
			ZH: "使用能表达语义的向量模型时，可发现多句回答中句与句之间话题的突然跳转。"},
		bilingual.Text{EN: "Anything about one-sentence answers, which all score 1: 5,985 of TruthfulQA's 6,028 answers, where its AUC is 0.497 (chance). With the offline embedder two different sentences share few characters (the sample's adjacent sentences average 0.061), so coherence mostly counts sentences: on the sample the no-context answers, mostly one sentence, score 0.746 and the gold-document answers 0.051.",
			ZH: "一句话的回答（都得 1）：TruthfulQA 的 6,028 个回答中有 5,985 个只有一句，AUC 为 0.497（相当于随机）。离线向量模型下两句不同的话共有的字很少（示例数据中相邻句平均只有 0.061），连贯性主要反映句子数：示例中大多只有一句的无上下文回答得 0.746，依据标准文档的回答只得 0.051。"}},
	{"rouge",
		bilingual.Text{EN: "Mean of the ROUGE-1, ROUGE-2 and ROUGE-L F1 against the reference.",
			ZH: "与参考答案的 ROUGE-1、ROUGE-2、ROUGE-L F1 的平均值。"},
		bilingual.Text{EN: "How much of the reference's wording the answer reuses.",
			ZH: "回答沿用了多少参考答案的措辞。"},
		bilingual.Text{EN: "Paraphrase and truth: TruthfulQA AUC 0.622 as listed but 0.483 without copies of the reference, below chance.",
			ZH: "换一种说法的正确回答以及真假：TruthfulQA 上 AUC 为 0.622，去掉参考答案副本后为 0.483，低于随机。"}},
	{"conciseness",
		bilingual.Text{EN: "(1 − share of repeated sentences)², times a penalty exp(−(L − 2)) once the answer is longer than twice the reference (L = length ratio).",
			ZH: "（1 − 重复句比例）²，回答超过参考答案长度两倍后再乘以 exp(−(L − 2))（L 为长度比）。"},
		bilingual.Text{EN: "Rambling and repetition: answers that repeat sentences or run far beyond the reference.",
			ZH: "啰嗦与重复：重复句子或远超参考答案长度的回答。"},
		bilingual.Text{EN: "Anything about answers within twice the reference with no repeated sentence, which all score 1: every answer of the sample (1.000 for each system); TruthfulQA AUC 0.493 as listed, 0.478 without copies.",
			ZH: "不超过参考答案两倍长度且没有重复句的回答（都得 1）：示例数据中所有回答都如此（各系统均为 1.000）；TruthfulQA 上 AUC 为 0.493，去掉参考答案副本后为 0.478。"}},
	{"total",
		bilingual.Text{EN: "Weighted mean of the six factors (default 0.25, 0.20, 0.15, 0.15, 0.15, 0.10), over the factors measured.",
			ZH: "六个因子的加权平均（默认 0.25、0.20、0.15、0.15、0.15、0.10），只计可计算的因子。"},
		bilingual.Text{EN: "How much an answer overlaps the reference in wording and content: TruthfulQA AUC 0.664.",
			ZH: "回答在措辞和内容上与参考答案的重合程度：TruthfulQA 上 AUC 为 0.664。"},
		bilingual.Text{EN: "Whether an answer is right: without copies of the reference the AUC is 0.541, barely above chance. Use the judges' verdicts for correctness and MFSS for how an answer is written.",
			ZH: "回答是否正确：去掉参考答案副本后 AUC 只有 0.541，仅略高于随机。正确性请看评审结论，MFSS 用来看回答的写法。"}},
}

// FactorNotes returns the notes in lang, in FactorNames order and then the
// total.
func FactorNotes(lang bilingual.Lang) []Note {
	out := make([]Note, 0, len(notes))
	for _, n := range notes {
		name := bilingual.Text{EN: "Total", ZH: "总分"}
		if t, ok := factorName[n.factor]; ok {
			name = t
		}
		out = append(out, Note{Factor: n.factor, Name: name.In(lang), Measures: n.measures.In(lang),
			Can: n.can.In(lang), Cannot: n.cannot.In(lang)})
	}
	return out
}
