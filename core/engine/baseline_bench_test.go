package engine

import (
	"strconv"
	"testing"

	"cubeworkbench/core/dataset"
)

// benchWorkbook is a workbook shaped like internal/scale's generated one
// (which this package cannot import: scale imports the session, which
// imports the engine): n questions over g guides, each guide a key-value
// text of about 300 characters, each question with a zero, a RAG and a
// full answer of 60–150 characters about its guide. english swaps in
// English text of the same shape.
func benchWorkbook(n, g int, english bool) *dataset.Workbook {
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
		{"The applicant must hold local household registration, be at least 16 years old, and hold no valid card; an agent needs a power of attorney.", "The materials are complete and lawful, and the matter falls within this office's powers."},
		{"Household register, original and copy; two recent colour photos; one application form.", "A valid identity document; a bank card; the withdrawal form and proofs."},
		{"free of charge", "a fee of 20 yuan", "no fee"},
	}
	p := zh
	if english {
		p = en
	}
	pick := func(k, i int) string { return p[k][i%len(p[k])] }
	wb := &dataset.Workbook{}
	for j := 1; j <= g; j++ {
		id := strconv.Itoa(j)
		var text string
		if english {
			text = "Item: " + pick(0, j) + " (" + id + ")\nRegion: " + pick(1, j) + "\nAgency: " + pick(2, j) +
				"\nConditions: " + pick(3, j) + " Item number " + id + ".\nTime limit: " + strconv.Itoa(5+j%25) +
				" working days\nMaterials: " + pick(4, j) + "\nFee: " + pick(5, j) + "\nPhone: 010-" + strconv.Itoa(12345678+j)
		} else {
			text = "事项名称：" + pick(0, j) + "（" + id + "）\n行政区划：" + pick(1, j) + "\n实施主体：" + pick(2, j) +
				"\n受理条件：" + pick(3, j) + "事项序号" + id + "。\n法定办结时限：" + strconv.Itoa(5+j%25) +
				"个工作日\n申请材料：" + pick(4, j) + "\n收费标准：" + pick(5, j) + "\n咨询电话：010-" + strconv.Itoa(12345678+j)
		}
		wb.Guides = append(wb.Guides, dataset.Guide{ID: "G" + id, Title: pick(0, j), Text: text})
	}
	for i := 1; i <= n; i++ {
		j, id := (i-1)%g+1, strconv.Itoa(i)
		it := dataset.Item{ID: "Q" + id, DocID: "G" + strconv.Itoa(j)}
		if english {
			it.SetAnswer(dataset.SetRAG, "According to "+pick(2, j)+" in "+pick(1, j)+", for "+pick(0, j)+" bring: "+pick(4, j)+
				" It takes "+strconv.Itoa(5+j%25)+" working days, "+pick(5, j)+". (reply "+id+")")
			it.SetAnswer(dataset.SetZero, "Usually you need your identity card and the forms; ask the local service centre. ("+id+")")
			it.SetAnswer(dataset.SetFull, "Conditions: "+pick(3, j)+" Materials: "+pick(4, j)+" Fee: "+pick(5, j)+". (no. "+id+")")
			it.Reference = "Bring " + pick(4, j) + " to " + pick(2, j) + "; " + pick(5, j) + "."
		} else {
			it.SetAnswer(dataset.SetRAG, "根据"+pick(1, j)+pick(2, j)+"发布的办事指南，办理"+pick(0, j)+"须"+pick(4, j)+
				"法定办结时限为"+strconv.Itoa(5+j%25)+"个工作日，"+pick(5, j)+"。（答复编号"+id+"）")
			it.SetAnswer(dataset.SetZero, "一般来说，办理"+pick(0, j)+"需要携带本人身份证件和相关申请材料，具体要求请咨询当地政务服务中心。（编号"+id+"）")
			it.SetAnswer(dataset.SetFull, "办理"+pick(0, j)+"的受理条件是："+pick(3, j)+"所需材料："+pick(4, j)+"收费标准："+pick(5, j)+"。（编号"+id+"）")
			it.Reference = "须提交" + pick(4, j) + "由" + pick(2, j) + "受理，" + pick(5, j) + "。"
		}
		wb.Items = append(wb.Items, it)
	}
	return wb
}

// BenchmarkBaselines scores the BLEU and ROUGE-L baselines of 2,000
// questions (6,000 answers) over 40 guides per iteration, as
// computeBaselines does at any scale (50 questions a guide, as at 100,000
// over 2,000): go test -run '^$' -bench Baselines -benchmem ./core/engine
func BenchmarkBaselines(b *testing.B) {
	for _, c := range []struct {
		name    string
		english bool
	}{{"zh", false}, {"en", true}} {
		b.Run(c.name, func(b *testing.B) {
			wb := benchWorkbook(2000, 40, c.english)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if res := computeBaselines(wb); res.Items != 2000 {
					b.Fatalf("%d items scored", res.Items)
				}
			}
		})
	}
}
