// Package benchbook is an in-memory workbook for benchmarks in packages
// that internal/scale cannot serve, because scale imports the session and
// through it the engine, MFSS and the rest: n questions over g guides,
// each guide a key-value text of about 300 characters, each question with
// a zero, a RAG and a full answer of 60–150 characters about its guide
// and a short reference, in Chinese or English.
package benchbook

import (
	"strconv"

	"cubeworkbench/core/dataset"
)

// phrases are the pieces guides and answers are made of: item name,
// region, agency, conditions, materials, fee.
var phrases = map[bool][][]string{
	false: {
		{"居民身份证申领", "普通护照签发", "机动车驾驶证换证", "营业执照变更登记", "住房公积金提取"},
		{"北京市东城区", "上海市浦东新区", "广东省深圳市", "四川省成都市"},
		{"市公安局出入境管理支队", "区市场监督管理局", "住房公积金管理中心"},
		{"申请人须为本市户籍居民，年满十六周岁，且未持有有效证件；委托他人办理的须提供授权委托书。", "材料齐全、符合法定形式，申请事项属于本机关职权范围，依法应当受理。"},
		{"居民户口簿原件及复印件；近期免冠彩色照片两张；申请表一份。", "本人有效身份证件；银行卡；提取申请书及相关证明材料。"},
		{"不收费", "工本费20元", "免费"},
	},
	true: {
		{"identity card application", "ordinary passport issue", "driving licence renewal", "business licence change", "housing fund withdrawal"},
		{"Dongcheng District, Beijing", "Pudong New Area, Shanghai", "Shenzhen, Guangdong", "Chengdu, Sichuan"},
		{"the municipal exit-entry bureau", "the district market regulator", "the housing fund centre"},
		{"The applicant must hold local household registration, be at least 16 years old, and hold no valid card. An agent needs a power of attorney.", "The materials are complete and lawful, and the matter falls within this office's powers."},
		{"Household register, original and copy; two recent colour photos; one application form.", "A valid identity document; a bank card; the withdrawal form and proofs."},
		{"free of charge", "a fee of 20 yuan", "no fee"},
	},
}

// Workbook is n questions over g guides (question i asks about guide
// (i-1) mod g + 1), in English when english is set.
func Workbook(n, g int, english bool) *dataset.Workbook {
	p := phrases[english]
	pick := func(k, j int) string { return p[k][j%len(p[k])] }
	wb := &dataset.Workbook{}
	for j := 1; j <= g; j++ {
		wb.Guides = append(wb.Guides, dataset.Guide{ID: "G" + strconv.Itoa(j), Title: pick(0, j), Text: guideText(pick, j, english)})
	}
	for i := 1; i <= n; i++ {
		j := (i-1)%g + 1
		it := dataset.Item{ID: "Q" + strconv.Itoa(i), DocID: "G" + strconv.Itoa(j), Category: pick(0, j), QueryType: "事实类"}
		answer(&it, func(k int) string { return pick(k, j) }, j, strconv.Itoa(i), english)
		wb.Items = append(wb.Items, it)
	}
	return wb
}

func guideText(pick func(k, j int) string, j int, english bool) string {
	id, days, phone := strconv.Itoa(j), strconv.Itoa(5+j%25), strconv.Itoa(12345678+j)
	if english {
		return "Item: " + pick(0, j) + " (" + id + ")\nRegion: " + pick(1, j) + "\nAgency: " + pick(2, j) +
			"\nConditions: " + pick(3, j) + " Item number " + id + ".\nTime limit: " + days +
			" working days\nMaterials: " + pick(4, j) + "\nFee: " + pick(5, j) + "\nPhone: 010-" + phone
	}
	return "事项名称：" + pick(0, j) + "（" + id + "）\n行政区划：" + pick(1, j) + "\n实施主体：" + pick(2, j) +
		"\n受理条件：" + pick(3, j) + "事项序号" + id + "。\n法定办结时限：" + days +
		"个工作日\n申请材料：" + pick(4, j) + "\n收费标准：" + pick(5, j) + "\n咨询电话：010-" + phone
}

// answer sets it's three answers and its reference about guide j.
func answer(it *dataset.Item, pick func(k int) string, j int, id string, english bool) {
	days := strconv.Itoa(5 + j%25)
	if english {
		it.SetAnswer(dataset.SetRAG, "According to "+pick(2)+" in "+pick(1)+", for "+pick(0)+" bring: "+pick(4)+
			" It takes "+days+" working days, "+pick(5)+". (reply "+id+")")
		it.SetAnswer(dataset.SetZero, "Usually you need your identity card and the forms. Ask the local service centre. ("+id+")")
		it.SetAnswer(dataset.SetFull, "Conditions: "+pick(3)+" Materials: "+pick(4)+" Fee: "+pick(5)+". (no. "+id+")")
		it.Reference = "Bring " + pick(4) + " to " + pick(2) + "; " + pick(5) + "."
		return
	}
	it.SetAnswer(dataset.SetRAG, "根据"+pick(1)+pick(2)+"发布的办事指南，办理"+pick(0)+"须"+pick(4)+
		"法定办结时限为"+days+"个工作日，"+pick(5)+"。（答复编号"+id+"）")
	it.SetAnswer(dataset.SetZero, "一般来说，办理"+pick(0)+"需要携带本人身份证件和相关申请材料，具体要求请咨询当地政务服务中心。（编号"+id+"）")
	it.SetAnswer(dataset.SetFull, "办理"+pick(0)+"的受理条件是："+pick(3)+"所需材料："+pick(4)+"收费标准："+pick(5)+"。（编号"+id+"）")
	it.Reference = "须提交" + pick(4) + "由" + pick(2) + "受理，" + pick(5) + "。"
}
