package textmetric

import (
	"strconv"
	"testing"
)

// benchPairs are (answer, guide) pairs shaped like the baselines' work: a
// guide of about 300 characters, answers of 60–150 about it.
func benchPairs(english bool) [][2]string {
	guide := "事项名称：居民身份证申领（12）\n行政区划：北京市东城区\n实施主体：市公安局出入境管理支队\n受理条件：申请人须为本市户籍居民，年满十六周岁，且未持有有效证件；委托他人办理的须提供授权委托书。事项序号12。\n法定办结时限：17个工作日\n申请材料：居民户口簿原件及复印件；近期免冠彩色照片两张；申请表一份。\n收费标准：工本费20元\n咨询电话：010-12345690"
	answers := []string{
		"根据北京市东城区市公安局出入境管理支队发布的办事指南，办理居民身份证申领须居民户口簿原件及复印件；近期免冠彩色照片两张；申请表一份。法定办结时限为17个工作日，工本费20元。（答复编号",
		"一般来说，办理居民身份证申领需要携带本人身份证件和相关申请材料，具体要求请咨询当地政务服务中心。（编号",
		"办理居民身份证申领的受理条件是：申请人须为本市户籍居民，年满十六周岁，且未持有有效证件；委托他人办理的须提供授权委托书。所需材料：居民户口簿原件及复印件。（编号",
	}
	if english {
		guide = "Item: identity card application (12)\nRegion: Dongcheng District, Beijing\nAgency: the municipal exit-entry bureau\nConditions: The applicant must hold local household registration, be at least 16 years old, and hold no valid card; an agent needs a power of attorney. Item number 12.\nTime limit: 17 working days\nMaterials: Household register, original and copy; two recent colour photos; one application form.\nFee: a fee of 20 yuan\nPhone: 010-12345690"
		answers = []string{
			"According to the municipal exit-entry bureau in Dongcheng District, Beijing, for identity card application bring: Household register, original and copy; two recent colour photos. It takes 17 working days, a fee of 20 yuan. (reply ",
			"Usually you need your identity card and the forms; ask the local service centre. (",
			"Conditions: The applicant must hold local household registration, be at least 16 years old. Materials: Household register, original and copy. Fee: a fee of 20 yuan. (no. ",
		}
	}
	var out [][2]string
	for i := range 300 {
		out = append(out, [2]string{answers[i%3] + strconv.Itoa(i) + ")", guide})
	}
	return out
}

// BenchmarkBaselinePair scores BLEU and ROUGE-L of 300 answers against
// their guide per iteration, three ways: pair by pair (SentenceBLEU and
// Rouge, as the vectors test them), with the guide prepared once
// (BLEURef.Sentence, RougeLRef.L of tokens) and as the baselines now do
// (BLEURef.Score, RougeLRef.LText: no string per token). The first is the
// cost before any preparation, in the same run.
func BenchmarkBaselinePair(b *testing.B) {
	for _, lang := range []string{"zh", "en"} {
		pairs := benchPairs(lang == "en")
		doc := pairs[0][1]
		opt := BLEUOptions{Tokenize: AutoBLEUTokenizer(doc)}
		zh := IsChinese(doc)
		tok := func(s string) []string { return RougeTokenize(s, false) }
		if zh {
			tok = TokenizeChinese
		}
		b.Run(lang+"/pairwise", func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				for _, p := range pairs {
					if _, err := SentenceBLEU(p[0], []string{p[1]}, opt); err != nil {
						b.Fatal(err)
					}
					_ = Rouge(p[1], p[0], RougeOptions{}).RougeL
				}
			}
		})
		b.Run(lang+"/prepared", func(b *testing.B) {
			b.ReportAllocs()
			var sc BLEUScratch
			var buf []int32
			for range b.N {
				ref, _ := NewBLEURef(doc, opt)
				rl := NewRougeLRef(tok(doc))
				for _, p := range pairs {
					if _, err := ref.Sentence(p[0], &sc); err != nil {
						b.Fatal(err)
					}
					_, buf = rl.L(tok(p[0]), buf)
				}
			}
		})
		b.Run(lang+"/ids", func(b *testing.B) {
			b.ReportAllocs()
			var sc BLEUScratch
			var rs RougeScratch
			for range b.N {
				ref, _ := NewBLEURef(doc, opt)
				rl := NewRougeLRef(tok(doc))
				for _, p := range pairs {
					_ = ref.Score(p[0], &sc)
					_ = rl.LText(p[0], zh, false, &rs)
				}
			}
		})
	}
}
