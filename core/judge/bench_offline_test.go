package judge_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"cubeworkbench/core/judge"
	"cubeworkbench/core/proc"
)

// scaleInputs are judgements shaped like internal/scale's 100,000-question
// workbook (2,000 guides, so 50 questions a guide, each with a rag, a zero
// and a full answer): guides questions per guide over guides guides, in
// the order the engine makes them (item by item, the sets of one item
// together). The phrases follow internal/scale's generator.
func scaleInputs(guides, perGuide int) []judge.Inputs {
	names := []string{"居民身份证申领", "普通护照签发", "机动车驾驶证换证", "营业执照变更登记", "社会保险关系转移", "住房公积金提取"}
	regions := []string{"北京市东城区", "上海市浦东新区", "广东省深圳市", "四川省成都市"}
	agency := []string{"市公安局出入境管理支队", "区市场监督管理局", "市人力资源和社会保障局"}
	conds := []string{"申请人须为本市户籍居民，年满十六周岁，且未持有有效证件；委托他人办理的须提供授权委托书。", "材料齐全、符合法定形式，申请事项属于本机关职权范围，依法应当受理。"}
	steps := []string{"网上申请或窗口提交材料，工作人员当场审核，材料齐全的予以受理，审核通过后制证并通知领取。", "申请、受理、审查、决定、送达五个环节，全程可在政务服务网查询办理进度。"}
	docs := []string{"居民户口簿原件及复印件；近期免冠彩色照片两张；申请表一份。", "营业执照正本、副本；法定代表人签署的变更登记申请书；章程修正案。"}
	fees := []string{"不收费", "工本费20元", "免费"}
	asks := []string{"需要带哪些材料？", "办理时限是多久？", "在哪里办理？", "需要满足什么条件？", "收费吗？"}
	var out []judge.Inputs
	for g := 1; g <= guides; g++ {
		n := strconv.Itoa(g)
		title := names[g%len(names)] + "（" + n + "）"
		guide := strings.Join([]string{
			"事项编码：1101" + fmt.Sprintf("%013d", g), "事项名称：" + title, "行政区划：" + regions[g%len(regions)], "实施主体：" + agency[g%len(agency)],
			"受理条件：" + conds[g%len(conds)] + "事项序号" + n + "。", "法定办结时限：" + strconv.Itoa(5+g%25) + "个工作日",
			"承诺办结时限：" + strconv.Itoa(1+g%10) + "个工作日", "办理流程：" + steps[g%len(steps)] + "流水号" + n + "。",
			"申请材料：" + docs[g%len(docs)], "收费标准：" + fees[g%3], "咨询电话：0" + strconv.Itoa(10+g%90) + "-" + fmt.Sprintf("%08d", 12345678+g),
		}, "\n")
		for k := range perGuide {
			i := strconv.Itoa(g*perGuide + k)
			q := "请问" + regions[g%len(regions)] + "办理" + title + asks[k%len(asks)]
			rag := "根据" + regions[g%len(regions)] + agency[g%len(agency)] + "发布的办事指南，办理" + title + "须" + docs[g%len(docs)] +
				"法定办结时限为" + strconv.Itoa(5+g%25) + "个工作日，承诺" + strconv.Itoa(1+g%10) + "个工作日内办结，" + fees[g%3] + "。（答复编号" + i + "）"
			zero := "一般来说，办理" + names[g%len(names)] + "需要携带本人身份证件和相关申请材料，具体要求请咨询当地政务服务中心。（编号" + i + "）"
			full := "办理" + title + "的受理条件是：" + conds[g%len(conds)] + "所需材料：" + docs[g%len(docs)] + "办理流程：" + steps[g%len(steps)] +
				"收费标准：" + fees[g%3] + "，咨询电话见指南。（编号" + i + "）"
			for _, a := range []string{rag, zero, full} {
				out = append(out, judge.Inputs{Question: q, Answer: a, Document: guide})
			}
		}
	}
	return out
}

// BenchmarkOfflineJudges measures the offline judges as the engine runs
// them: one ScoreAll per answer over CuBE's four dimensions, with a judge
// (and so its memo) made afresh each op. "scale" is internal/scale's shape
// (4 guides × 50 questions × 3 answers, as 2,000 guides × 50 questions at
// 100,000); "sample" is the bundled sample with its references. The
// oracle-* runs are the judges before issue 27 (oracle_test.go), for a
// before/after ratio within one run on a loaded machine:
//
//	go test -run '^$' -bench OfflineJudges -benchmem ./core/judge
func BenchmarkOfflineJudges(b *testing.B) {
	dims := judge.CubeDimensions()
	judges := []struct {
		name string
		make func() judge.Batcher
	}{
		{"lexical", func() judge.Batcher { return judge.NewLexical() }},
		{"semantic", func() judge.Batcher { return judge.NewSemantic() }},
		{"oracle-lexical", func() judge.Batcher { _, m, _, _ := judge.Oracles(); return m }},
		{"oracle-semantic", func() judge.Batcher { _, _, _, m := judge.Oracles(); return m }},
	}
	workloads := []struct {
		name   string
		inputs []judge.Inputs
	}{{"scale", scaleInputs(4, 50)}, {"sample", sampleInputs(b)}}
	ctx := context.Background()
	for _, w := range workloads {
		for _, j := range judges {
			b.Run(w.name+"/"+j.name, func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := proc.CPUTime()
				for range b.N {
					s := j.make()
					for _, in := range w.inputs {
						if _, err := s.ScoreAll(ctx, dims, in); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(w.inputs)), "ns/answer")
				// CPU time (the process's, GC included) tells more than wall
				// time on a shared, loaded machine.
				b.ReportMetric(float64((proc.CPUTime()-cpu0).Nanoseconds())/float64(b.N*len(w.inputs)), "cpu-ns/answer")
			})
		}
	}
}
