package mfss

import (
	"context"
	"strconv"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
)

// scaleItems are n questions shaped like internal/scale's generated
// workbook (whose package imports the engine, which imports this one): a
// short reference and a zero, a RAG and a full answer of 60–150
// characters, Chinese or English.
func scaleItems(n int, english bool) []dataset.Item {
	zh := [][]string{
		{"居民身份证申领", "普通护照签发", "机动车驾驶证换证", "营业执照变更登记", "住房公积金提取"},
		{"北京市东城区", "上海市浦东新区", "广东省深圳市", "四川省成都市"},
		{"市公安局出入境管理支队", "区市场监督管理局", "住房公积金管理中心"},
		{"申请人须为本市户籍居民，年满十六周岁，且未持有有效证件；委托他人办理的须提供授权委托书。", "材料齐全、符合法定形式，申请事项属于本机关职权范围，依法应当受理。"},
		{"居民户口簿原件及复印件；近期免冠彩色照片两张；申请表一份。", "本人有效身份证件；银行卡；提取申请书及相关证明材料。"},
		{"不收费", "工本费20元", "免费"},
	}
	en := [][]string{
		{"identity card application", "ordinary passport issue", "driving licence renewal", "business licence change", "housing fund withdrawal"},
		{"Dongcheng District, Beijing", "Pudong New Area, Shanghai", "Shenzhen, Guangdong", "Chengdu, Sichuan"},
		{"the municipal exit-entry bureau", "the district market regulator", "the housing fund centre"},
		{"The applicant must hold local household registration, be at least 16 years old, and hold no valid card. An agent needs a power of attorney.", "The materials are complete and lawful, and the matter falls within this office's powers."},
		{"Household register, original and copy; two recent colour photos; one application form.", "A valid identity document; a bank card; the withdrawal form and proofs."},
		{"free of charge", "a fee of 20 yuan", "no fee"},
	}
	p := zh
	if english {
		p = en
	}
	items := make([]dataset.Item, 0, n)
	for i := 1; i <= n; i++ {
		j, id := (i-1)%(n/50+1)+1, strconv.Itoa(i)
		pick := func(k int) string { return p[k][j%len(p[k])] }
		it := dataset.Item{ID: "Q" + id, Category: pick(0), QueryType: "事实类"}
		if english {
			it.SetAnswer(dataset.SetRAG, "According to "+pick(2)+" in "+pick(1)+", for "+pick(0)+" bring: "+pick(4)+
				" It takes "+strconv.Itoa(5+j%25)+" working days, "+pick(5)+". (reply "+id+")")
			it.SetAnswer(dataset.SetZero, "Usually you need your identity card and the forms. Ask the local service centre. ("+id+")")
			it.SetAnswer(dataset.SetFull, "Conditions: "+pick(3)+" Materials: "+pick(4)+" Fee: "+pick(5)+". (no. "+id+")")
			it.Reference = "Bring " + pick(4) + " to " + pick(2) + "; " + pick(5) + "."
		} else {
			it.SetAnswer(dataset.SetRAG, "根据"+pick(1)+pick(2)+"发布的办事指南，办理"+pick(0)+"须"+pick(4)+
				"法定办结时限为"+strconv.Itoa(5+j%25)+"个工作日，"+pick(5)+"。（答复编号"+id+"）")
			it.SetAnswer(dataset.SetZero, "一般来说，办理"+pick(0)+"需要携带本人身份证件和相关申请材料，具体要求请咨询当地政务服务中心。（编号"+id+"）")
			it.SetAnswer(dataset.SetFull, "办理"+pick(0)+"的受理条件是："+pick(3)+"所需材料："+pick(4)+"收费标准："+pick(5)+"。（编号"+id+"）")
			it.Reference = "须提交" + pick(4) + "由" + pick(2) + "受理，" + pick(5) + "。"
		}
		items = append(items, it)
	}
	return items
}

// BenchmarkEvaluateScale is MFSS as the engine runs it on an offline
// evaluation: 2,000 questions × the three answer sets with the offline
// embedder per iteration: go test -run '^$' -bench EvaluateScale -benchmem ./core/mfss
func BenchmarkEvaluateScale(b *testing.B) {
	for _, c := range []struct {
		name    string
		english bool
	}{{"zh", false}, {"en", true}} {
		b.Run(c.name, func(b *testing.B) {
			items := scaleItems(2000, c.english)
			ctx, h, cfg := context.Background(), embed.NewHashed(), DefaultConfig()
			systems := []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				res, err := Evaluate(ctx, h, items, systems, cfg, nil)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Items) != 6000 {
					b.Fatalf("%d pairs", len(res.Items))
				}
			}
		})
	}
}
