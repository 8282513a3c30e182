package scale

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/dimension"
)

// Judges are the two imported judges whose scores the workbook carries: no
// endpoint, so an evaluation of it makes no call.
var Judges = []string{"qwen2.5-72b", "deepseek-v3"}

// Dimensions are the profile's default CuBE dimensions, in order.
var Dimensions = dimension.Defaults()

// Sets are the three CuBE answer sets each judge scores.
var Sets = []string{"rag", "zero", "full"}

// TopN is the retrieved list's length (the default profile's TOP-N).
const TopN = 8

// HitRate is the share of questions whose retrieved list holds the gold
// document, so Recall@8 is about 0.8.
const HitRate = 0.8

// maxDataRows is Excel's 1,048,576 rows less the header: a longer scores
// sheet goes on over "scores (2)", "scores (3)" (workbook.md).
const maxDataRows = 1<<20 - 1

// Shape is what a generated workbook holds, for the caller's assertions.
type Shape struct {
	Items       int
	Guides      int
	Scores      int      // judgement rows, 24 per item
	ScoreSheets []string // "scores", then its continuations
	Hits        int      // items whose gold document was retrieved
}

// Sheet names of the generated workbook.
const (
	SheetGuides = "guides"
	SheetQA     = "qa"
	SheetScores = "scores"
)

var guideHeader = []any{"事项编码", "事项名称", "行政区划", "实施主体", "受理条件", "设定依据", "法定办结时限", "承诺办结时限", "办理流程", "申请材料", "收费标准", "咨询电话"}

var qaHeader = []any{"编号", "问题", "标准文档", "检索文档", "回答", "零分答案", "满分答案", "参考答案", "问题类型"}

var scoresHeader = []any{"编号", "答案集", "评委", "维度", "分数"}

// Phrase pools, mixed with the row number so no two rows are equal.
var (
	names   = []string{"居民身份证申领", "普通护照签发", "机动车驾驶证换证", "营业执照变更登记", "社会保险关系转移", "住房公积金提取", "出生医学证明办理", "残疾人证核发", "城乡居民医保参保登记", "不动产登记资料查询"}
	regions = []string{"北京市东城区", "上海市浦东新区", "广东省深圳市", "四川省成都市", "浙江省杭州市", "湖北省武汉市"}
	agency  = []string{"市公安局出入境管理支队", "区市场监督管理局", "市人力资源和社会保障局", "住房公积金管理中心", "区卫生健康委员会", "市不动产登记中心"}
	conds   = []string{"申请人须为本市户籍居民，年满十六周岁，且未持有有效证件；委托他人办理的须提供授权委托书。", "材料齐全、符合法定形式，申请事项属于本机关职权范围，依法应当受理。", "参保人在本市连续缴费满十二个月，且未在其他统筹地区重复参保。"}
	basis   = []string{"《中华人民共和国居民身份证法》第八条", "《中华人民共和国行政许可法》第二十九条、第三十二条", "《住房公积金管理条例》第二十四条"}
	steps   = []string{"网上申请或窗口提交材料，工作人员当场审核，材料齐全的予以受理，审核通过后制证并通知领取。", "申请、受理、审查、决定、送达五个环节，全程可在政务服务网查询办理进度。"}
	docs    = []string{"居民户口簿原件及复印件；近期免冠彩色照片两张；申请表一份。", "营业执照正本、副本；法定代表人签署的变更登记申请书；章程修正案。", "本人有效身份证件；银行卡；提取申请书及相关证明材料。"}
	fees    = []string{"不收费", "工本费20元", "免费"}
	asks    = []string{"需要带哪些材料？", "办理时限是多久？", "在哪里办理？", "需要满足什么条件？", "收费吗？", "可以委托他人办理吗？"}
	qtypes  = []string{"事实类", "分析类", "比较类", "教程类"}
)

// GuideID is the id of guide g (1-based).
func GuideID(g int) string { return "1101" + fmt.Sprintf("%013d", g) }

// ItemID is the id of question i (1-based).
func ItemID(i int) string { return "Q" + strconv.Itoa(i) }

func guideTitle(g int) string { return names[g%len(names)] + "（" + strconv.Itoa(g) + "）" }

func guideRow(g int) []any {
	n := strconv.Itoa(g)
	return []any{
		GuideID(g),
		guideTitle(g),
		regions[g%len(regions)],
		agency[g%len(agency)],
		conds[g%len(conds)] + "事项序号" + n + "。",
		basis[g%len(basis)],
		strconv.Itoa(5+g%25) + "个工作日",
		strconv.Itoa(1+g%10) + "个工作日",
		steps[g%len(steps)] + "流水号" + n + "。",
		docs[g%len(docs)],
		fees[g%3],
		"0" + strconv.Itoa(10+g%90) + "-" + fmt.Sprintf("%08d", 12345678+g),
	}
}

// item is one generated question: its gold guide and where it was retrieved.
type item struct {
	gold      int
	retrieved []int
	rank      int // 1-based position of gold in retrieved, 0 when absent
}

// rankScore is formulas.md §1's rank score for TOP-N 8.
func (it item) rankScore() float64 {
	if it.rank == 0 {
		return 0
	}
	return float64(TopN + 2 - it.rank)
}

func newItem(r *rand.Rand, i, guides int) item {
	it := item{gold: (i-1)%guides + 1}
	if r.Float64() < HitRate {
		it.rank = 1 + r.IntN(TopN)
	}
	seen := map[int]bool{it.gold: true}
	for k := 1; k <= TopN; k++ {
		if k == it.rank {
			it.retrieved = append(it.retrieved, it.gold)
			continue
		}
		g := 1 + r.IntN(guides)
		for seen[g] && guides > TopN {
			g = 1 + r.IntN(guides)
		}
		seen[g] = true
		it.retrieved = append(it.retrieved, g)
	}
	return it
}

func qaRow(i int, it item) ([]any, error) {
	ids := make([]string, len(it.retrieved))
	for k, g := range it.retrieved {
		ids[k] = GuideID(g)
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	g, n := it.gold, strconv.Itoa(i)
	title := guideTitle(g)
	q := "请问" + regions[g%len(regions)] + "办理" + title + asks[i%len(asks)]
	rag := "根据" + regions[g%len(regions)] + agency[g%len(agency)] + "发布的办事指南，办理" + title + "须" + docs[g%len(docs)] +
		"法定办结时限为" + strconv.Itoa(5+g%25) + "个工作日，承诺" + strconv.Itoa(1+g%10) + "个工作日内办结，" + fees[g%3] + "。（答复编号" + n + "）"
	zero := "一般来说，办理" + names[g%len(names)] + "需要携带本人身份证件和相关申请材料，具体要求请咨询当地政务服务中心。（编号" + n + "）"
	full := "办理" + title + "的受理条件是：" + conds[g%len(conds)] + "所需材料：" + docs[g%len(docs)] + "办理流程：" + steps[g%len(steps)] +
		"收费标准：" + fees[g%3] + "，咨询电话见指南。（编号" + n + "）"
	ref := "须提交" + docs[g%len(docs)] + "由" + agency[g%len(agency)] + "受理，" + strconv.Itoa(1+g%10) + "个工作日内办结，" + fees[g%3] + "。"
	return []any{ItemID(i), q, GuideID(g), string(list), rag, zero, full, ref, qtypes[i%len(qtypes)]}, nil
}

// score draws judge j's integer 0–10 score of one answer. The rag answer's
// score rises with the gold document's rank score, more steeply on the
// first dimensions, so the correlation weights differ and mean something;
// the zero answer scores low and the full answer high, so the bounds hold.
func score(r *rand.Rand, it item, j, set, d int) int {
	var v float64
	switch Sets[set] {
	case "rag":
		slope := []float64{0.55, 0.45, 0.35, 0.2}[d]
		v = 3.2 + slope*it.rankScore()
	case "zero":
		v = 4.0
	default:
		v = 8.6
	}
	v += 0.3*float64(j) - 0.2*float64(d) + r.NormFloat64()
	return int(math.Max(0, math.Min(10, math.Round(v))))
}

// Write generates a workbook of n questions over n/2 guides (at least
// TopN+1) with the two imported judges' scores at path, with excelize's
// StreamWriter so memory stays flat, and returns its shape. The same n and
// seed give the same workbook.
func Write(path string, n int, seed uint64) (Shape, error) {
	return WriteBook(path, Book{Items: n, Seed: seed, Scores: true})
}

// Book is what WriteBook generates.
type Book struct {
	Items  int    // questions
	Guides int    // guides; 0 is Items/2 (at least TopN+1)
	Seed   uint64 // the same seed gives the same workbook
	// Scores adds the scores sheets of the two imported judges (24
	// judgements per question); without them an evaluation is judged by
	// the judges of its profile (the offline lexical and semantic ones).
	Scores bool
}

// WriteBook generates the workbook b describes at path (see Write).
func WriteBook(path string, b Book) (Shape, error) {
	n, seed := b.Items, b.Seed
	if n < 1 {
		return Shape{}, fmt.Errorf("scale: %d questions; give at least 1", n)
	}
	guides := b.Guides
	if guides == 0 {
		guides = n / 2
	}
	sh := Shape{Items: n, Guides: max(guides, TopN+1)}
	if b.Scores {
		sh.Scores = n * len(Judges) * len(Dimensions) * len(Sets)
	}
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", SheetGuides); err != nil {
		return sh, err
	}
	sw, err := f.NewStreamWriter(SheetGuides)
	if err != nil {
		return sh, fmt.Errorf("scale: guides: %w", err)
	}
	if err := sw.SetRow("A1", guideHeader); err != nil {
		return sh, err
	}
	for g := 1; g <= sh.Guides; g++ {
		if err := sw.SetRow(cellRef(g+1), guideRow(g)); err != nil {
			return sh, fmt.Errorf("scale: guide %d: %w", g, err)
		}
	}
	if err := sw.Flush(); err != nil {
		return sh, fmt.Errorf("scale: guides: %w", err)
	}

	// Questions and their scores come from one stream of random numbers:
	// the items are drawn once for the QA sheet and kept (small: ids only)
	// for the scores sheets.
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	items := make([]item, n+1)
	if _, err := f.NewSheet(SheetQA); err != nil {
		return sh, err
	}
	if sw, err = f.NewStreamWriter(SheetQA); err != nil {
		return sh, fmt.Errorf("scale: qa: %w", err)
	}
	if err := sw.SetRow("A1", qaHeader); err != nil {
		return sh, err
	}
	for i := 1; i <= n; i++ {
		items[i] = newItem(r, i, sh.Guides)
		if items[i].rank > 0 {
			sh.Hits++
		}
		row, err := qaRow(i, items[i])
		if err != nil {
			return sh, err
		}
		if err := sw.SetRow(cellRef(i+1), row); err != nil {
			return sh, fmt.Errorf("scale: question %d: %w", i, err)
		}
	}
	if err := sw.Flush(); err != nil {
		return sh, fmt.Errorf("scale: qa: %w", err)
	}
	if b.Scores {
		if err := writeScores(f, &sh, r, items); err != nil {
			return sh, err
		}
	}
	if err := f.SaveAs(path); err != nil {
		return sh, fmt.Errorf("scale: save %s: %w", path, err)
	}
	return sh, nil
}

// writeScores writes the imported judges' scores of every item over the
// scores sheet and its continuations.
func writeScores(f *excelize.File, sh *Shape, r *rand.Rand, items []item) error {
	n := sh.Items
	var sw *excelize.StreamWriter
	var rowsOnSheet int
	next := func() error { // start the next scores sheet
		if sw != nil && rowsOnSheet > 0 {
			if err := sw.Flush(); err != nil {
				return err
			}
		}
		name := SheetScores
		if k := len(sh.ScoreSheets); k > 0 {
			name = fmt.Sprintf("%s (%d)", SheetScores, k+1)
		}
		if _, err := f.NewSheet(name); err != nil {
			return err
		}
		var err error
		if sw, err = f.NewStreamWriter(name); err != nil {
			return err
		}
		sh.ScoreSheets = append(sh.ScoreSheets, name)
		rowsOnSheet = 0
		return sw.SetRow("A1", scoresHeader)
	}
	if err := next(); err != nil {
		return fmt.Errorf("scale: scores: %w", err)
	}
	row := make([]any, len(scoresHeader))
	for i := 1; i <= n; i++ {
		id := ItemID(i)
		for j, judge := range Judges {
			for s, set := range Sets {
				for d, dim := range Dimensions {
					if rowsOnSheet == maxDataRows {
						if err := next(); err != nil {
							return fmt.Errorf("scale: scores: %w", err)
						}
					}
					rowsOnSheet++
					row[0], row[1], row[2], row[3], row[4] = id, set, judge, dim, score(r, items[i], j, s, d)
					if err := sw.SetRow(cellRef(rowsOnSheet+1), row); err != nil {
						return fmt.Errorf("scale: scores of %s: %w", id, err)
					}
				}
			}
		}
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("scale: scores: %w", err)
	}
	return nil
}

func cellRef(row int) string { return "A" + strconv.Itoa(row) }
